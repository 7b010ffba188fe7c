import { Fragment } from "react";

/** The document's sentences, `backticked` words shown as code (OpenAPI descriptions are CommonMark; this is the part they use). */
export function Prose({ text }: { text: string }) {
  return <>{text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}</>;
}

import Link from "next/link";
import type { ComponentProps } from "react";

/** An in-app link in the brand colour; `hoverUnderline` for links in tables and lists, underlined on hover only. */
export function TextLink({ hoverUnderline = false, className, ...rest }: ComponentProps<typeof Link> & { hoverUnderline?: boolean }) {
  const base = hoverUnderline ? "text-brand-700 underline-offset-2 hover:underline" : "text-brand-700 underline";
  return <Link className={className ? `${base} ${className}` : base} {...rest} />;
}

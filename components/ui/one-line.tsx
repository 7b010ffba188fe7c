import type { ReactNode } from "react";

// A tag, an e-mail or an address is read whole: it never breaks into fragments. It stays on one line, and where
// there is no room (a phone's card) it ends in "…" with the whole text in its tooltip.

/** `text` on one line, cut with "…" only where it cannot fit; `children` when the shown text is a link or styled. */
export function OneLine({ text, className, children }: { text: string; className?: string; children?: ReactNode }) {
  const base = "block max-w-full truncate";
  return (
    <span title={text} className={className ? `${base} ${className}` : base} data-one-line="">
      {children ?? text}
    </span>
  );
}

import Link from "next/link";
import type { ReactNode } from "react";

/** Newer/Older links around a "Page n of m" line; a null href leaves its link out. `note` follows the links. */
export function Pager({ newerHref, olderHref, children, note }: { newerHref: string | null; olderHref: string | null; children: ReactNode; note?: ReactNode }) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
      {newerHref ? (
        <Link href={newerHref} className="underline">
          Newer
        </Link>
      ) : null}
      <span>{children}</span>
      {olderHref ? (
        <Link href={olderHref} className="underline">
          Older
        </Link>
      ) : null}
      {note}
    </nav>
  );
}

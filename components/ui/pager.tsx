import Link from "next/link";
import type { ReactNode } from "react";

/** Newer/Older links around a "Page n of m" line; a null href leaves its link out. `note` follows the links. */
/** `newerHref` is the previous page, `olderHref` the next; a list that runs oldest first names them the other way round (`oldestFirst`). */
export function Pager({
  newerHref,
  olderHref,
  children,
  note,
  oldestFirst = false,
}: {
  newerHref: string | null;
  olderHref: string | null;
  children: ReactNode;
  note?: ReactNode;
  oldestFirst?: boolean;
}) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
      {newerHref ? (
        <Link href={newerHref} className="underline">
          {oldestFirst ? "Older" : "Newer"}
        </Link>
      ) : null}
      <span>{children}</span>
      {olderHref ? (
        <Link href={olderHref} className="underline">
          {oldestFirst ? "Newer" : "Older"}
        </Link>
      ) : null}
      {note}
    </nav>
  );
}

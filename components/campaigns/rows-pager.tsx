import Link from "next/link";
import type { ReactNode } from "react";

/**
 * Previous/Next links around a "Page n of m" line, for rows in file order (the shared Pager says Newer/Older). `label`
 * names the landmark when a page has two pagers (a plan's board and its roster).
 */
export function RowsPager({
  previousHref,
  nextHref,
  label = "Pages of rows",
  children,
}: {
  previousHref: string | null;
  nextHref: string | null;
  label?: string;
  children: ReactNode;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-3 text-sm">
      {previousHref ? (
        <Link href={previousHref} scroll={false} className="underline">
          Previous
        </Link>
      ) : null}
      <span>{children}</span>
      {nextHref ? (
        <Link href={nextHref} scroll={false} className="underline">
          Next
        </Link>
      ) : null}
    </nav>
  );
}

import Link from "next/link";

import type { ExceptionListQuery, ExceptionStatus } from "@/lib/client/exceptions/view";

import { exceptionsHref, openCountText } from "./format";

// Open and Resolved as links (the status lives in the URL), the one in view marked; Open carries every open one's count.

const BASE = "inline-flex items-center gap-1 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium";
const IDLE = `${BASE} border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-950`;
const CURRENT = `${BASE} border-brand-600 text-slate-950`;

const WORDS: Record<ExceptionStatus, string> = { open: "Open", resolved: "Resolved" };

export function StatusTabs({ query, open }: { query: ExceptionListQuery; open: { open: number; capped: boolean } | null }) {
  return (
    <nav aria-label="Exceptions by status" className="border-b border-slate-200">
      <ul className="flex gap-1">
        {(["open", "resolved"] as const).map((status) => {
          const here = query.status === status;
          return (
            <li key={status}>
              <Link
                href={exceptionsHref({ status, kind: query.kind, page: 1 })}
                aria-current={here ? "page" : undefined}
                className={here ? CURRENT : IDLE}
                data-testid={`exceptions-tab-${status}`}
              >
                {WORDS[status]}
                {status === "open" && open !== null ? <span className="text-slate-600 tabular-nums">({openCountText(open)})</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

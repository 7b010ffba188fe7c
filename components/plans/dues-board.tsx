"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";

import { formatNaira } from "@/components/campaigns/format";
import { RowsPager } from "@/components/campaigns/rows-pager";
import { periodLabel } from "@/lib/client/plans/period-label";
import { PayerTag } from "@/components/payers/payer-tag";
import { buttonClasses } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { TextLink } from "@/components/ui/text-link";
import { pagerLinks } from "@/lib/client/http/pager-links";
import { payerKey } from "@/lib/client/payers/tag";
import { CELL_WORDS, type BoardCell, type BoardView } from "@/lib/client/plans/view";
import { planBoardQuery, planBoardSearch, planPageSearch } from "@/lib/client/query/options";

import { rateText } from "./format";
import { CELL_CLASSES } from "./status-badge";

// The member column stays in view while the periods scroll sideways under it (a phone scrolls the board's own box,
// never the page): sticky at the left, with a background so the cells passing under it do not show through.
// Tighter on a phone, so the member, what they owe and a whole period's label fit the first screen (375 px).
const STICKY = "sticky left-0 z-10 border-r border-slate-200 px-2 py-2 text-left sm:px-3";
const CELL = "border-t border-slate-100 px-2 py-2 sm:px-3";

/** A cell: the status word in its colour (the word says it, the colour repeats it), linking to its request when there is one. */
function Cell({ cell, tag }: { cell: BoardCell; tag: string }) {
  const badge = (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ${CELL_CLASSES[cell.status]}`}>
      {CELL_WORDS[cell.status]}
    </span>
  );
  return (
    <td className={CELL} data-testid="board-cell" data-tag={payerKey(tag)} data-period={cell.period} data-status={cell.status}>
      {cell.requestId ? (
        <TextLink href={`/requests/${encodeURIComponent(cell.requestId)}`} hoverUnderline className="inline-block leading-6">
          {badge}
          <span className="sr-only">
            {" "}
            (request #{cell.requestId}, @{payerKey(tag)}, {cell.period})
          </span>
        </TextLink>
      ) : (
        badge
      )}
    </td>
  );
}

function BoardTable({ board }: { board: BoardView }) {
  return (
    // relative: the box is the containing block of the cells' screen-reader text (absolutely placed), so it scrolls with them
    // rather than widening the page.
    <div className={cardClasses("relative overflow-x-auto")} tabIndex={0} role="region" aria-label="Dues board" data-testid="board-scroll">
      <table className="min-w-full border-separate border-spacing-0 text-sm">
        <caption className="sr-only">Each member&apos;s outcome in each period, oldest period first, and each period&apos;s totals in the last row</caption>
        <thead className="text-left text-slate-700">
          <tr>
            <th scope="col" className={`${STICKY} bg-slate-50 font-medium`}>
              Member
            </th>
            <th scope="col" className="bg-slate-50 px-2 py-2 text-right font-medium whitespace-nowrap sm:px-3">
              Owes
            </th>
            {board.periods.map((p) => (
              <th key={p} scope="col" className="bg-slate-50 px-2 py-2 font-medium sm:px-3" data-testid="board-period" data-period={p}>
                {periodLabel(p)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {board.members.map((m) => (
            <tr key={m.tag} data-testid="board-row" data-tag={payerKey(m.tag)}>
              <th scope="row" className={`${STICKY} border-t border-slate-100 bg-white font-normal`} data-testid="board-member">
                {/* A table cell ignores max-width: the box inside keeps a long tag to its width, cut with "…". */}
                <div className="max-w-28 sm:max-w-40">
                  <PayerTag tag={m.tag} className="font-medium" />
                  {m.name ? <span className="block truncate text-xs text-slate-600">{m.name}</span> : null}
                  {m.removed ? <span className="block text-xs text-slate-600">removed</span> : null}
                </div>
              </th>
              <td className={`${CELL} text-right whitespace-nowrap tabular-nums`} data-testid="board-owing">
                {formatNaira(m.owing)}
              </td>
              {m.cells.map((c) => (
                <Cell key={c.period} cell={c} tag={m.tag} />
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="text-slate-800">
          <tr>
            <th scope="row" className={`${STICKY} border-t border-slate-300 bg-slate-50 font-medium`}>
              Period totals
            </th>
            <td className="border-t border-slate-300 bg-slate-50 px-3 py-2" />
            {board.totals.map((t) => (
              <td
                key={t.period}
                className="border-t border-slate-300 bg-slate-50 px-3 py-2 text-xs whitespace-nowrap"
                data-testid="board-total"
                data-period={t.period}
              >
                <span className="block">Asked {formatNaira(t.asked)}</span>
                <span className="block">Collected after fees {formatNaira(t.collected)}</span>
                <span className="block font-medium" data-testid="board-rate">
                  Paid {rateText(t.rate)}
                </span>
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/**
 * The dues board (GET /api/plans/:id/board): members × the plan's last 12 periods, each cell the best outcome over the
 * period's rounds, a page of members at a time (the totals are over everyone). "Only those who owe" and the page live in
 * the URL (?owing=1&page=2); the CSV of the filter is every member.
 */
export function DuesBoard({ id, owing, page, members }: { id: string; owing: boolean; page: number; members: number }) {
  const router = useRouter();
  const pathname = usePathname();
  const query = useQuery(planBoardQuery(id, owing, page));
  const links = pagerLinks(page, query.data ? { ...query.data, items: query.data.members, totalCapped: false } : undefined);
  // The roster's page (`members=`) stays as it is while the board moves.
  const pageHref = (n: number) => `${pathname}${planPageSearch({ owing, page: n, members })}`;
  // The box shows the choice at once; the URL (and with it the board) follows when the navigation lands.
  const [checked, setChecked] = useOptimistic(owing);
  const [, startTransition] = useTransition();
  const csvHref = `/api/plans/${encodeURIComponent(id)}/board${planBoardSearch({ owing, format: "csv" })}`;
  return (
    <section aria-labelledby="board-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="board-heading" className="text-lg font-semibold">
          Dues board
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          {/* Nothing to submit (a choice applies at once), so a search landmark rather than a form. */}
          <div role="search" aria-label="Filter the board">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={checked}
                onChange={(e) => {
                  const next = e.target.checked;
                  startTransition(() => {
                    setChecked(next);
                    router.push(`${pathname}${planPageSearch({ owing: next, members })}`, { scroll: false });
                  });
                }}
              />
              Only those who owe
            </label>
          </div>
          <a href={csvHref} download className={buttonClasses("secondary")}>
            Download CSV
          </a>
        </div>
      </div>
      {!query.data ? (
        query.isError ? (
          <ErrorPanel title="The dues board could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
        ) : (
          <p className="text-sm text-slate-600">Loading…</p>
        )
      ) : query.data.periods.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="board-empty">
          No period is due yet: the board fills in from the first period on.
        </p>
      ) : query.data.total === 0 ? (
        <p className="text-sm text-slate-700" data-testid="board-empty">
          {owing ? (
            <>
              Nobody owes anything in these periods. <TextLink href={`${pathname}${planPageSearch({ members })}`}>Show everyone</TextLink>.
            </>
          ) : (
            "This plan has no members to show."
          )}
        </p>
      ) : (
        <>
          <BoardTable board={query.data} />
          <RowsPager previousHref={links.previous ? pageHref(links.previous) : null} nextHref={links.next ? pageHref(links.next) : null}>
            {links.label} · {query.data.total.toLocaleString("en")} member{query.data.total === 1 ? "" : "s"}
          </RowsPager>
        </>
      )}
      <p className="text-xs text-slate-600">
        A cell shows the best outcome over the period&apos;s rounds: Paid, Pending, Declined, Failed, Skipped (left out, e.g. asked not to be asked) or Not
        asked. Owes counts what is pending, declined or failed in these periods.
      </p>
    </section>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";

import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { ListHeading } from "@/components/ui/list-heading";
import { LocalTime } from "@/components/ui/local-time";
import { Pager } from "@/components/ui/pager";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor } from "@/lib/client/money";
import { payerListSearch, type PayerListQuery } from "@/lib/client/payers/search";
import { PAYER_FILTERS, PAYER_SORTS, type PayerFilter, type PayerSort, type PayerView } from "@/lib/client/payers/view";
import { payerListQuery } from "@/lib/client/query/options";

import { answerTimeText } from "./format";
import { PayerTag } from "./payer-tag";

const FILTER_WORDS: Record<PayerFilter, string> = {
  unanswered: "Still to answer",
  declined: "Declined",
  paid: "Paid",
  "do-not-ask": "Do not ask",
};

const SORT_WORDS: Record<PayerSort, string> = {
  recent: "Latest activity",
  collected: "Most collected",
  asked: "Most asked",
  tag: "Tag (A–Z)",
};

const COLUMNS: Column[] = [
  "Payer",
  { label: "Collected", align: "right", lead: true },
  { label: "Asked", align: "right" },
  { label: "Accepted", align: "right" },
  { label: "Declined", align: "right" },
  { label: "Still to answer", align: "right", lead: true },
  { label: "Answers in", align: "right" },
  "Last activity",
];

/** Search, filter, sort and page live in the URL (a plain GET form), so a list can be shared and survives reload. */
export function PayerList({ query: current }: { query: PayerListQuery }) {
  const query = useQuery(payerListQuery(current));
  const href = (next: PayerListQuery) => `/payers${payerListSearch(next)}`;
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
  const active = Boolean(current.q || current.filter || current.sort !== "recent");
  return (
    <div className="space-y-4">
      <form role="search" aria-label="Find payers" action="/payers" className="flex flex-wrap items-end gap-3">
        <LabelledControl id="payers-q" label="Tag or name">
          <input
            id="payers-q"
            name="q"
            defaultValue={current.q ?? ""}
            className={inputClass}
            placeholder="e.g. ada.obi or Ada"
            maxLength={64}
            autoComplete="off"
          />
        </LabelledControl>
        <LabelledControl id="payers-filter" label="Show">
          <select id="payers-filter" name="filter" defaultValue={current.filter ?? ""} className={inputClass}>
            <option value="">Everyone</option>
            {PAYER_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_WORDS[f]}
              </option>
            ))}
          </select>
        </LabelledControl>
        <LabelledControl id="payers-sort" label="Order">
          <select id="payers-sort" name="sort" defaultValue={current.sort} className={inputClass}>
            {PAYER_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_WORDS[s]}
              </option>
            ))}
          </select>
        </LabelledControl>
        <button type="submit" className={buttonClasses("primary")}>
          Search
        </button>
        {active ? (
          <TextLink href="/payers" className="text-sm">
            Clear
          </TextLink>
        ) : null}
      </form>
      {query.isError ? (
        <ErrorPanel title="Payers could not be loaded" message={query.error.message} />
      ) : (
        <>
          <ListHeading title="Payers" csvHref={`/api/payers${payerListSearch({ ...current, page: 1 }, { format: "csv" })}`} />
          <PayersTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "Nobody matches."} />
        </>
      )}
      <Pager
        newerHref={current.page > 1 ? href({ ...current, page: current.page - 1 }) : null}
        olderHref={current.page < pages ? href({ ...current, page: current.page + 1 }) : null}
      >
        Page {current.page} of {pages}
        {query.data ? ` · ${query.data.total.toLocaleString("en")} payer${query.data.total === 1 ? "" : "s"}` : ""}
      </Pager>
    </div>
  );
}

function PayersTable({ items, empty }: { items: PayerView[]; empty: string }) {
  return (
    <DataTable label="Payers" caption="Payers: who was asked and who paid" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((p) => (
        <tr key={p.tag} data-testid="payer-row" data-tag={p.tag}>
          <Td>
            <PayerTag tag={p.tag} className="font-medium whitespace-nowrap" />
            {p.name ? <div className="text-xs text-slate-600">{p.name}</div> : null}
            {p.doNotAsk ? (
              <Badge tone="warning" className="mt-1">
                Do not ask
              </Badge>
            ) : null}
          </Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatMajor("NGN", p.collected)}</Td>
          <Td className="text-right tabular-nums">{p.asked}</Td>
          <Td className="text-right tabular-nums">{p.accepted}</Td>
          <Td className="text-right tabular-nums">{p.declined}</Td>
          <Td className="text-right tabular-nums">{p.unanswered}</Td>
          <Td className="text-right whitespace-nowrap">{answerTimeText(p.medianAnswerSeconds)}</Td>
          <Td className="whitespace-nowrap text-slate-700">
            <LocalTime iso={p.lastActivityAt} />
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Badge } from "@/components/ui/badge";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { ListHeading } from "@/components/ui/list-heading";
import { LocalTime } from "@/components/ui/local-time";
import { Pager } from "@/components/ui/pager";
import { pagerLinks } from "@/lib/client/http/pager-links";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { FilterActions } from "@/components/ui/filter-actions";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import type { payerListFormSchema } from "@/lib/client/payers/schemas";
import { formatMajor } from "@/lib/client/money";
import { payerListSearch, type PayerListQuery } from "@/lib/client/payers/search";
import { PAYER_FILTERS, PAYER_SORTS, type PayerFilter, type PayerSort, type PayerView } from "@/lib/client/payers/view";
import { payerListQuery } from "@/lib/client/query/options";

import { answerTimeText } from "./format";
import { PayerTag } from "./payer-tag";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

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
  { label: "Collected after fees", align: "right", lead: true },
  { label: "Asked", align: "right" },
  { label: "Accepted", align: "right" },
  { label: "Declined", align: "right" },
  { label: "Failed", align: "right" },
  { label: "Still to answer", align: "right", lead: true },
  { label: "Answers in", align: "right" },
  "Last activity",
];

type SearchInput = z.input<typeof payerListFormSchema>;
type SearchOutput = z.output<typeof payerListFormSchema>;

/** Search, filter, sort and page live in the URL, so a list can be shared and survives reload; a new search starts at page 1. */
export function PayerList({ query: current }: { query: PayerListQuery }) {
  const router = useRouter();
  const query = useQuery(payerListQuery(current));
  const href = (next: PayerListQuery) => `/payers${payerListSearch(next)}`;
  const links = pagerLinks(current.page, query.data);
  const active = Boolean(current.q || current.filter || current.sort !== "recent");
  return (
    <div className="space-y-4">
      <PayerSearch key={payerListSearch(current)} query={current} clearHref={active ? "/payers" : null} onApply={(next) => router.push(href(next))} />
      {query.isError ? (
        <ErrorPanel title="Payers could not be loaded" message={query.error.message} />
      ) : (
        <>
          <ListHeading title="Payers" csvHref={`/api/payers${payerListSearch({ ...current, page: 1 }, { format: "csv" })}`} />
          <PayersTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "Nobody matches."} />
        </>
      )}
      <Pager
        newerHref={links.previous ? href({ ...current, page: links.previous }) : null}
        olderHref={links.next ? href({ ...current, page: links.next }) : null}
      >
        {links.label}
        {query.data ? ` · ${query.data.total.toLocaleString("en")}${query.data.totalCapped ? "+" : ""} payer${query.data.total === 1 ? "" : "s"}` : ""}
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
            {p.overpaid > 0 ? (
              <Badge tone="danger" className="mt-1" data-testid="payer-overpaid">
                Paid twice
              </Badge>
            ) : null}
          </Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatMajor("NGN", p.collected)}</Td>
          <Td className="text-right tabular-nums">{p.asked}</Td>
          <Td className="text-right tabular-nums">{p.accepted}</Td>
          <Td className="text-right tabular-nums">{p.declined}</Td>
          <Td className="text-right tabular-nums">{p.failed}</Td>
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

function PayerSearch({ query, clearHref, onApply }: { query: PayerListQuery; clearHref: string | null; onApply: (next: PayerListQuery) => void }) {
  const form = useForm<SearchInput, unknown, SearchOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/payers/schemas").then((m) => m.payerListFormSchema)),
    defaultValues: { q: query.q ?? "", filter: query.filter ?? "", sort: query.sort },
  });
  const submit = ({ q, filter, sort }: SearchOutput) => onApply({ q: q || undefined, filter: filter || undefined, sort, page: 1 });
  const applyNow = { onChange: () => void form.handleSubmit(submit)() };
  return (
    <form role="search" aria-label="Find payers" className="flex flex-wrap items-end gap-3" onSubmit={form.handleSubmit(submit)}>
      <ReadyFieldset>
        <LabelledControl id="payers-q" label="Tag or name">
          <input id="payers-q" className={inputClass} placeholder="e.g. ada.obi or Ada" maxLength={64} autoComplete="off" {...form.register("q")} />
        </LabelledControl>
        <LabelledControl id="payers-filter" label="Show">
          <select id="payers-filter" className={inputClass} {...form.register("filter", applyNow)}>
            <option value="">Everyone</option>
            {PAYER_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_WORDS[f]}
              </option>
            ))}
          </select>
        </LabelledControl>
        <LabelledControl id="payers-sort" label="Order">
          <select id="payers-sort" className={inputClass} {...form.register("sort", applyNow)}>
            {PAYER_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_WORDS[s]}
              </option>
            ))}
          </select>
        </LabelledControl>
        <FilterActions submitLabel="Search" clearHref={clearHref} />
      </ReadyFieldset>
    </form>
  );
}

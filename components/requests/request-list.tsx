"use client";

import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { ErrorPanel } from "@/components/ui/error-panel";
import { FilterActions } from "@/components/ui/filter-actions";
import { ListHeading } from "@/components/ui/list-heading";
import { DayRangeInputs, QuickRanges } from "@/components/ui/day-range";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { Pager } from "@/components/ui/pager";
import { requestListQuery } from "@/lib/client/query/options";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { REQUEST_STATUSES } from "@/lib/client/requests/constants";
import { requestListSearch } from "@/lib/client/requests/list-search";
import type { RequestListQuery, requestListFormSchema } from "@/lib/client/requests/schemas";

import { RequestTotalsView } from "./request-totals";
import { RequestsTable } from "./requests-table";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// The fields read with the rule the page and GET /api/requests use (anything unusable is ignored); the page is 1 again.
type FilterInput = z.input<typeof requestListFormSchema>;
type FilterOutput = z.output<typeof requestListFormSchema>;

export interface CampaignChoice {
  id: string;
  name: string;
}

/** Filters and page live in the URL, so a filtered list can be shared and survives reload; `today` is the day in TIMEZONE. */
export function RequestList({ query: current, campaigns, today }: { query: RequestListQuery; campaigns: readonly CampaignChoice[]; today: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const query = useQuery(requestListQuery(current));
  const href = (next: RequestListQuery) => `${pathname}${requestListSearch(next)}`;
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
  // The whole filter, not this page: the CSV ignores paging.
  const csvHref = `/api/requests${requestListSearch({ ...current, page: 1 }, { format: "csv" })}`;
  const active = Boolean(current.status || current.tag || current.campaign || current.from || current.to);

  return (
    <div className="space-y-4">
      <QuickRanges today={today} range={current} href={(days) => href({ ...current, ...days, page: 1 })} />
      <RequestFilters
        key={requestListSearch(current)}
        query={current}
        campaigns={campaigns}
        clearHref={active ? pathname : null}
        onApply={(next) => router.push(href(next))}
      />
      {query.isError ? (
        <ErrorPanel title="Requests could not be loaded" message={query.error.message} />
      ) : (
        <>
          {query.data ? <RequestTotalsView totals={query.data.totals} /> : null}
          <ListHeading title="Requests sent" csvHref={csvHref} />
          <RequestsTable items={query.data?.items ?? []} empty={query.isPending ? "Loading…" : "No requests match."} />
        </>
      )}
      <Pager
        newerHref={current.page > 1 ? href({ ...current, page: current.page - 1 }) : null}
        olderHref={current.page < pages ? href({ ...current, page: current.page + 1 }) : null}
      >
        Page {current.page} of {pages}
        {query.data ? ` · ${query.data.total} request${query.data.total === 1 ? "" : "s"}` : ""}
      </Pager>
    </div>
  );
}

/** One form for the whole filter; a select applies at once, the text and date fields with Search. */
function RequestFilters({
  query,
  campaigns,
  clearHref,
  onApply,
}: {
  query: RequestListQuery;
  campaigns: readonly CampaignChoice[];
  clearHref: string | null;
  onApply: (next: RequestListQuery) => void;
}) {
  const form = useForm<FilterInput, unknown, FilterOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/requests/schemas").then((m) => m.requestListFormSchema)),
    defaultValues: { status: query.status, campaign: query.campaign ?? "", from: query.from ?? "", to: query.to ?? "", tag: query.tag ?? "" },
  });
  const submit = ({ status, campaign, from, to, tag }: FilterOutput) => onApply({ status, campaign, from, to, tag: tag || undefined, page: 1 });
  const applyNow = { onChange: () => void form.handleSubmit(submit)() };
  // A campaign named in the URL but not among the choices (an old one) is still shown as chosen.
  const unlisted = query.campaign && query.campaign !== "none" && !campaigns.some((c) => c.id === query.campaign) ? query.campaign : null;

  return (
    <form role="search" aria-label="Filter requests" className="flex flex-wrap items-end gap-3" onSubmit={form.handleSubmit(submit)}>
      <ReadyFieldset>
        <LabelledControl id="filter-status" label="Status">
          <select id="filter-status" className={inputClass} {...form.register("status", applyNow)}>
            <option value="">All</option>
            {REQUEST_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </LabelledControl>
        <LabelledControl id="filter-campaign" label="Campaign">
          <select id="filter-campaign" className={inputClass} {...form.register("campaign", applyNow)}>
            <option value="">All requests</option>
            <option value="none">Single requests only</option>
            {unlisted ? <option value={unlisted}>This campaign ({unlisted.slice(0, 8)})</option> : null}
            {campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </LabelledControl>
        <DayRangeInputs what="Created" from={form.register("from")} to={form.register("to")} />
        <LabelledControl id="filter-tag" label="Tag">
          <input id="filter-tag" className={inputClass} placeholder="e.g. ada.obi" maxLength={33} autoComplete="off" {...form.register("tag")} />
        </LabelledControl>
        <FilterActions submitLabel="Search" clearHref={clearHref} />
      </ReadyFieldset>
    </form>
  );
}

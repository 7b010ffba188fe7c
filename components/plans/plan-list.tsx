"use client";

import { useQuery } from "@tanstack/react-query";

import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LocalTime } from "@/components/ui/local-time";
import { Pager } from "@/components/ui/pager";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import type { PlanListItem } from "@/lib/client/plans/view";
import { planListQuery } from "@/lib/client/query/options";

import { FREQUENCY_WORDS, planHref } from "./format";
import { PlansSkeleton } from "./skeleton";
import { PlanStatusBadge } from "./status-badge";

const pageHref = (n: number) => (n > 1 ? `/plans?page=${n}` : "/plans");

const COLUMNS: Column[] = [
  "Name",
  { label: "Status", lead: true },
  "Frequency",
  { label: "Members", align: "right" },
  { label: "Next run", lead: true },
  "Last period",
];

/** One page of plans (the page number lives in the URL); live request, payment and campaign events refetch it. */
export function PlanList({ page, canSend }: { page: number; canSend: boolean }) {
  const query = useQuery(planListQuery(page));
  // A failed refetch keeps the plans last read; the panel is for a list never read.
  if (!query.data) {
    return query.isError ? (
      <ErrorPanel title="Plans could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
    ) : (
      <PlansSkeleton label="Loading plans" />
    );
  }
  const { items, total, pageSize } = query.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  if (total === 0) {
    return (
      <Card as="section" aria-labelledby="no-plans" className="p-6" data-testid="plans-empty">
        <h2 id="no-plans" className="text-lg font-semibold">
          No plans yet
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {canSend ? (
            <>
              <TextLink href="/plans/new">Make the first plan</TextLink> from a roster CSV: the same people are asked every week, month or quarter.
            </>
          ) : (
            "Admins and operators make plans; they appear here with their next run."
          )}
        </p>
      </Card>
    );
  }
  return (
    <>
      <PlansTable items={items} empty="No plans on this page." />
      <Pager newerHref={page > 1 ? pageHref(Math.min(page - 1, pages)) : null} olderHref={page < pages ? pageHref(page + 1) : null}>
        Page {page} of {pages} · {total.toLocaleString("en")} plan{total === 1 ? "" : "s"}
      </Pager>
    </>
  );
}

function PlansTable({ items, empty }: { items: PlanListItem[]; empty: string }) {
  return (
    <DataTable label="Plans" caption="Recurring collection plans, newest first" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((p) => (
        <tr key={p.id} data-testid="plan-row" data-plan-id={p.id}>
          <Td className="max-w-xs">
            <TextLink href={planHref(p.id)} hoverUnderline className="font-medium break-words">
              {p.name}
            </TextLink>
          </Td>
          <Td>
            <PlanStatusBadge status={p.status} />
          </Td>
          <Td>{FREQUENCY_WORDS[p.frequency]}</Td>
          <Td className="text-right tabular-nums">{p.members.toLocaleString("en")}</Td>
          <Td className="whitespace-nowrap text-slate-700">{p.nextRunAt ? <LocalTime iso={p.nextRunAt} /> : "None"}</Td>
          <Td className="whitespace-nowrap">{p.lastPeriod ?? "—"}</Td>
        </tr>
      ))}
    </DataTable>
  );
}

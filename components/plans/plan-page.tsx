"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname } from "next/navigation";

import { campaignHref, formatNaira } from "@/components/campaigns/format";
import { RowsPager } from "@/components/campaigns/rows-pager";
import { PayerTag } from "@/components/payers/payer-tag";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LocalTime } from "@/components/ui/local-time";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { pagerLinks } from "@/lib/client/http/pager-links";
import { periodOf } from "@/lib/client/plans/schedule";
import type { PlanPeriodView, PlanView } from "@/lib/client/plans/view";
import { planPageSearch, planQuery } from "@/lib/client/query/options";
import { dayOf } from "@/lib/client/time/zone";

import { DuesBoard } from "./dues-board";
import { scheduleText } from "./format";
import { MemberChangeForm } from "./member-change-form";
import { PlanStatusActions, RunPeriodForm } from "./plan-actions";
import { PlansSkeleton } from "./skeleton";
import { PlanStatusBadge } from "./status-badge";
import { periodLabel } from "@/lib/client/plans/period-label";

const PERIOD_COLUMNS: Column[] = [
  "Period",
  "Due",
  { label: "Status", lead: true },
  { label: "Paid", align: "right", lead: true },
  { label: "Still to answer", align: "right" },
  { label: "Declined or failed", align: "right" },
  { label: "Asked", align: "right" },
  { label: "Collected after fees", align: "right" },
  "Campaign",
];

const MEMBER_COLUMNS: Column[] = ["Row", "Tag", { label: "Amount", align: "right", lead: true }, "Description", { label: "Problem", lead: true }];

function PeriodsTable({ periods }: { periods: PlanPeriodView[] }) {
  return (
    <DataTable
      label="Periods"
      caption="The plan's periods, newest first, with their campaign's counts"
      columns={PERIOD_COLUMNS}
      empty={periods.length === 0 ? "No period has been made yet." : null}
    >
      {periods.map((p) => (
        <tr key={p.period} data-testid="plan-period-row" data-period={p.period} data-status={p.status}>
          <Td className="font-medium whitespace-nowrap">{periodLabel(p.period)}</Td>
          <Td className="whitespace-nowrap text-slate-700">
            <LocalTime iso={p.dueAt} />
          </Td>
          <Td>
            <Badge tone={p.status === "made" ? "success" : "warning"}>{p.status === "made" ? "made" : "missed — run it by hand"}</Badge>
            {p.chaseRounds > 0 ? <div className="text-xs text-slate-600">chased {p.chaseRounds}×</div> : null}
          </Td>
          <Td className="text-right tabular-nums">{p.counts ? p.counts.accepted.toLocaleString("en") : "—"}</Td>
          <Td className="text-right tabular-nums">{p.counts ? (p.counts.sent + p.counts.queued).toLocaleString("en") : "—"}</Td>
          <Td className="text-right tabular-nums">{p.counts ? (p.counts.declined + p.counts.failed).toLocaleString("en") : "—"}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{p.amounts ? formatNaira(p.amounts.asked) : "—"}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{p.amounts ? formatNaira(p.amounts.collected) : "—"}</Td>
          <Td className="whitespace-nowrap">
            {p.campaignId ? (
              <TextLink href={campaignHref(p.campaignId)} hoverUnderline>
                Campaign for {p.period}
              </TextLink>
            ) : (
              "—"
            )}
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

/** One page of the roster (`?members=` in the URL, the board's filter and page kept), Previous/Next under it. */
function MembersTable({ plan, owing, page }: { plan: PlanView; owing: boolean; page: number }) {
  const pathname = usePathname();
  const members = plan.roster;
  const links = pagerLinks(plan.rosterPage, {
    items: members,
    page: plan.rosterPage,
    pageSize: plan.rosterPageSize,
    total: plan.rosterTotal,
    totalCapped: false,
  });
  const membersHref = (n: number) => `${pathname}${planPageSearch({ owing, page, members: n })}`;
  return (
    <>
      <DataTable
        label="Members"
        caption="The plan's members in roster order, invalid ones with the reason"
        columns={MEMBER_COLUMNS}
        empty={members.length === 0 ? (plan.rosterTotal === 0 ? "No members." : "No members on this page.") : null}
      >
        {members.map((m) => (
          <tr key={m.row} data-testid="plan-member-row" data-tag={m.tag} data-invalid={m.error ? "" : undefined} className="align-top">
            <Td className="tabular-nums">{m.row}</Td>
            <Td className="font-medium">
              {m.error ? <OneLine text={m.tag ? (m.tag.startsWith("@") ? m.tag : `@${m.tag}`) : "—"} /> : <PayerTag tag={m.tag} />}
            </Td>
            <Td className="text-right whitespace-nowrap tabular-nums">{m.amount ? formatNaira(m.amount) : "—"}</Td>
            <Td className="max-w-xs break-words">{m.description || <span className="text-slate-600">the plan&apos;s</span>}</Td>
            <Td className="max-w-sm break-words">
              {m.error ? <p className="text-red-800">{m.error}</p> : null}
              {m.doNotAsk ? (
                <Badge tone="warning" className="whitespace-normal">
                  Do not ask: left out of each period
                </Badge>
              ) : null}
              {!m.error && !m.doNotAsk ? "—" : null}
            </Td>
          </tr>
        ))}
      </DataTable>
      {plan.rosterTotal > 0 ? (
        <RowsPager
          label="Pages of members"
          previousHref={links.previous ? membersHref(links.previous) : null}
          nextHref={links.next ? membersHref(links.next) : null}
        >
          {links.label} · {plan.rosterTotal.toLocaleString("en")} on the roster
        </RowsPager>
      ) : null}
    </>
  );
}

function PlanHeader({ plan }: { plan: PlanView }) {
  return (
    <div className="space-y-2">
      <TextLink href="/plans" className="text-sm">
        All plans
      </TextLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words" data-testid="plan-name">
          {plan.name}
        </h1>
        <PlanStatusBadge status={plan.status} />
      </div>
    </div>
  );
}

function PlanFacts({ plan }: { plan: PlanView }) {
  return (
    <Card className="p-4">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Detail label="Schedule" testId="plan-schedule" className="col-span-2">
          {scheduleText(plan)}
        </Detail>
        <Detail label="Time zone" testId="plan-time-zone">
          {plan.timeZone}
        </Detail>
        <Detail label="Next run" testId="plan-next-run">
          {plan.nextRunAt ? (
            <>
              <LocalTime iso={plan.nextRunAt} />
              {plan.nextPeriod ? <span className="block text-xs text-slate-600">period {plan.nextPeriod}</span> : null}
            </>
          ) : plan.status === "active" ? (
            "None: no period is left"
          ) : (
            `None while ${plan.status}`
          )}
        </Detail>
        <Detail label="Members" testId="plan-members" valueClassName="text-lg font-semibold tabular-nums">
          {plan.members.toLocaleString("en")}
          {plan.invalidMembers > 0 ? (
            <span className="block text-xs font-normal text-red-800" data-testid="plan-invalid-members">
              {plan.invalidMembers.toLocaleString("en")} invalid (never asked)
            </span>
          ) : null}
        </Detail>
        <Detail label="Dates">
          {plan.startsOn} to {plan.endsOn ?? "no end"}
        </Detail>
        <Detail label="Description" className="col-span-2 break-words">
          {plan.descriptionTemplate}
        </Detail>
        <Detail label="Chasing" className="col-span-2 sm:col-span-4">
          {plan.chase
            ? `Ask again after ${plan.chase.afterHours} h, up to ${plan.chase.times} round${plan.chase.times === 1 ? "" : "s"}: ${plan.chase.include.join(", ")}`
            : "None"}
        </Detail>
      </dl>
    </Card>
  );
}

/**
 * One plan: its schedule and next run, the actions its status allows, the dues board (filter and page in the URL), its periods
 * and a page of its members (`members=` in the URL). Every part is a query the page prefetched; live request, payment
 * and campaign events refetch them.
 */
export function PlanPage({
  id,
  owing,
  page,
  members,
  now,
  canSend,
}: {
  id: string;
  owing: boolean;
  page: number;
  members: number;
  now: string;
  canSend: boolean;
}) {
  const query = useQuery(planQuery(id, members));
  const plan = query.data ?? null;
  // A failed refetch keeps the plan last read; the panel is for one never read.
  if (!plan) {
    return query.isError ? (
      <ErrorPanel title="The plan could not be loaded" message={`${query.error.message} Reload the page to try again.`} />
    ) : (
      <PlansSkeleton label="Loading the plan" />
    );
  }
  const current = periodOf(plan.frequency, dayOf(new Date(now), plan.timeZone));
  return (
    <div className="space-y-6">
      <PlanHeader plan={plan} />
      <PlanFacts plan={plan} />
      {canSend && plan.status !== "ended" ? (
        <Card as="section" aria-labelledby="plan-actions-heading" className="space-y-4 p-4">
          <h2 id="plan-actions-heading" className="text-lg font-semibold">
            Actions
          </h2>
          <PlanStatusActions plan={plan} />
          <RunPeriodForm plan={plan} current={current} />
        </Card>
      ) : null}
      <DuesBoard id={id} owing={owing} page={page} members={members} />
      <section aria-labelledby="periods-heading" className="space-y-3">
        <h2 id="periods-heading" className="text-lg font-semibold">
          Periods
        </h2>
        <PeriodsTable periods={plan.periods} />
      </section>
      <section aria-labelledby="members-heading" className="space-y-3">
        <h2 id="members-heading" className="text-lg font-semibold">
          Members ({plan.members.toLocaleString("en")}
          {plan.invalidMembers > 0 ? `, ${plan.invalidMembers.toLocaleString("en")} invalid` : ""})
        </h2>
        <MembersTable plan={plan} owing={owing} page={page} />
        {canSend && plan.status !== "ended" ? <MemberChangeForm planId={plan.id} members={plan.rosterPage} /> : null}
      </section>
    </div>
  );
}

import "server-only";

// Ask again (docs/architecture.md "Payers and chasing"): a draft child campaign of a campaign's rows in the chosen states, each checked against the
// chasing policy; a row left out keeps its reason so the preview shows it. Starting it is as for any campaign.
import { sql } from "drizzle-orm";

import type { AskAgainState } from "@/lib/client/campaigns/constants";
import type { AskAgainInput } from "@/lib/client/campaigns/schemas";
import { LEFT_OUT_WORDS, type LeftOutReason } from "@/lib/client/campaigns/view";
import { payerKey } from "@/lib/client/payers/tag";
import { queryRows, type Db } from "@/lib/db/client";
import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit, type AuditEntry } from "@/lib/audit/write";
import { doNotAskMarks } from "@/lib/payers/do-not-ask";
import { getSettings } from "@/lib/settings/repo";
import { formatTime } from "@/lib/client/time/format";
import { getConfig } from "@/lib/config";

import { createCampaign, type CreateOptions, type LeftOutRow } from "./repo";
import type { ParsedRow } from "./parse";

export type AskAgainOutcome =
  | { kind: "made"; id: string; round: number; rows: number; leftOut: LeftOutRow[] }
  | { kind: "not_found" }
  | { kind: "draft" }
  | { kind: "nothing"; leftOut: LeftOutRow[] };

/** Who asked again, for the round's audit row (a person's ask, askAgainAudited; a plan's chase writes none). */
export interface AskAgainAudit {
  actor: AuditEntry["actor"];
  ip: string | null;
}

interface Candidate {
  row: number;
  tag: string;
  amount: string;
  description: string;
  business_reference: string | null;
  state: AskAgainState | "paid" | "too_recent" | "no_such_tag" | "outcome_unknown";
}

/**
 * Every row of the parent that was sent or failed, with the state of its request: declined, failed, unanswered
 * (pending for long enough), or why it cannot be asked again (paid, asked too recently, a tag the service does not
 * know, a send cut off). Each one is either asked again or listed as left out with its reason.
 */
async function candidates(db: Db, parentId: string, unansweredForHours: number): Promise<Candidate[]> {
  return queryRows<Candidate>(
    db,
    sql`select r.row, r.tag, r.amount_naira::text as amount, r.description, r.business_reference,
          case
            when fr.status = 'failed' and fr.failure_kind = 'not_found' then 'no_such_tag'
            when r.status = 'failed' or fr.status = 'failed' then 'failed'
            when fr.status = 'declined' then 'declined'
            when fr.status = 'accepted' then 'paid'
            when fr.status = 'unknown' then 'outcome_unknown'
            when fr.status = 'pending' and fr.created_at <= now() - make_interval(hours => ${unansweredForHours}) then 'unanswered'
            else 'too_recent'
          end as state
        from campaign_rows r left join fund_requests fr on fr.id = r.fund_request_id
        where r.campaign_id = ${parentId}::uuid and r.amount_naira is not null and r.status in ('sent', 'failed')
        order by r.row`,
  );
}

interface FamilyFacts {
  tag: string;
  asks: number;
  paid: boolean;
  open: boolean;
}

/**
 * Per payer key in the family (only `keys` when given): how often asked (a request that reached the person:
 * pending, accepted or declined; a failed send asked nobody), whether paid, whether a request is still open.
 */
async function familyFacts(db: Db, familyId: string, keys?: string[]): Promise<Map<string, FamilyFacts>> {
  const only =
    keys === undefined
      ? sql``
      : sql`and lower(regexp_replace(fr.tag, '^@', '')) in (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})`;
  const rows = await queryRows<FamilyFacts>(
    db,
    sql`select lower(regexp_replace(fr.tag, '^@', '')) as tag,
          (count(*) filter (where fr.status in ('pending', 'accepted', 'declined')))::int as asks,
          bool_or(fr.status = 'accepted') as paid, bool_or(fr.status = 'pending') as open
        from campaigns c join campaign_rows r on r.campaign_id = c.id join fund_requests fr on fr.id = r.fund_request_id
        where (c.id = ${familyId}::uuid or c.family_id = ${familyId}::uuid) ${only}
        group by 1`,
  );
  return new Map(rows.map((r) => [r.tag, r]));
}

/** Payer keys among `keys` that declined anything within the cool-down, with when their cool-down ends. */
export async function coolingDown(db: Db, keys: string[], hours: number): Promise<Map<string, Date>> {
  if (keys.length === 0 || hours <= 0) return new Map();
  const rows = await queryRows<{ tag: string; last: string }>(
    db,
    sql`select lower(regexp_replace(tag, '^@', '')) as tag, max(decided_at)::text as last from fund_requests
        where status = 'declined' and decided_at > now() - make_interval(hours => ${hours})
          and lower(regexp_replace(tag, '^@', '')) in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )})
        group by 1`,
  );
  return new Map(rows.map((r) => [r.tag, new Date(Date.parse(r.last) + hours * 3_600_000)]));
}

/** Makes the next round of `parentId` for the rows in `input.include`, or says why it cannot. */
export async function askAgain(
  db: Db,
  parentId: string,
  input: Omit<AskAgainInput, "overrideCooldown"> & { overrideCooldown?: boolean },
  by: string,
  extra: Pick<CreateOptions, "start" | "inTransaction"> & { audit?: AskAgainAudit } = {},
): Promise<AskAgainOutcome> {
  const [parent] = await queryRows<{ id: string; status: string; family_id: string | null; round: number }>(
    db,
    sql`select id, status, family_id, round from campaigns where id = ${parentId}::uuid`,
  );
  if (!parent) return { kind: "not_found" };
  if (parent.status === "draft") return { kind: "draft" };
  const familyId = parent.family_id ?? parent.id;
  const [root] = await queryRows<{ name: string }>(db, sql`select name from campaigns where id = ${familyId}::uuid`);
  const policy = await getSettings(db);
  const wanted = new Set<string>(input.include);
  const all = await candidates(db, parent.id, input.unansweredForHours);
  const keys = [...new Set(all.map((c) => payerKey(c.tag)))];
  const [facts, marks, cooling] = await Promise.all([familyFacts(db, familyId), doNotAskMarks(db, keys), coolingDown(db, keys, policy.declineCooldownHours)]);
  const timeZone = getConfig().timeZone;

  const rows: ParsedRow[] = [];
  const leftOut: LeftOutRow[] = [];
  const seen = new Set<string>();
  // Asks this round already holds, per payer key: a tag twice in the parent counts twice against the cap.
  const added = new Map<string, number>();
  // Everyone in the parent who is not asked again is listed with why: the person choosing sees the whole family.
  for (const c of all) {
    const key = payerKey(c.tag);
    const f = facts.get(key);
    const coolUntil = input.overrideCooldown ? undefined : cooling.get(key);
    const reason: LeftOutReason | null =
      c.state === "paid" || f?.paid
        ? "paid"
        : c.state === "no_such_tag" || c.state === "too_recent" || c.state === "outcome_unknown"
          ? c.state
          : !wanted.has(c.state)
            ? "not_chosen"
            : marks.has(key)
              ? "do_not_ask"
              : coolUntil
                ? "cooling_down"
                : (f?.asks ?? 0) + (added.get(key) ?? 0) >= policy.maxAsksPerTag
                  ? "asked_enough"
                  : f?.open && !wanted.has("unanswered")
                    ? "pending"
                    : null;
    const row = rows.length + leftOut.length + 1;
    if (reason) {
      const words =
        reason === "cooling_down" && coolUntil
          ? `declined recently (cooling down until ${formatTime(coolUntil.toISOString(), timeZone)})`
          : reason === "too_recent"
            ? `asked less than ${input.unansweredForHours} hours ago, so not yet unanswered`
            : LEFT_OUT_WORDS[reason];
      leftOut.push({
        row,
        tag: c.tag,
        amount: c.amount,
        description: c.description,
        businessReference: c.business_reference,
        reason,
        message: `Left out: ${words}`,
      });
      continue;
    }
    // One ask a person a round, whatever the parent's file held.
    if (seen.has(`${key}|${c.amount}`)) continue;
    seen.add(`${key}|${c.amount}`);
    added.set(key, (added.get(key) ?? 0) + 1);
    rows.push({
      row,
      tag: c.tag,
      amountText: c.amount,
      description: c.description,
      businessReference: c.business_reference,
      valid: { tag: c.tag, amount: c.amount, description: c.description, businessReference: c.business_reference },
      error: null,
    });
  }
  if (rows.length === 0) return { kind: "nothing", leftOut: leftOut.filter((l) => l.reason !== "not_chosen") };
  const round = parent.round + 1;
  const { audit, ...options } = extra;
  const id = await createCampaign(db, `${root?.name ?? "Campaign"} — round ${round}`.slice(0, 100), rows, by, {
    origin: { parentId: parent.id, familyId, round, cooldownOverride: input.overrideCooldown === true },
    leftOut,
    ...options,
    // The round and its audit row commit together (docs/architecture.md "The audit log").
    inTransaction: async (tx, campaignId) => {
      await options.inTransaction?.(tx, campaignId);
      if (audit)
        await writeAudit(tx, {
          action: "campaign.asked_again",
          actor: audit.actor,
          target: campaignId,
          detail: {
            parentId: parent.id,
            round,
            include: input.include,
            rows: rows.length,
            leftOut: leftOut.length,
            ...(input.overrideCooldown ? { overrideCooldown: true } : {}),
          },
          ip: audit.ip,
        });
    },
  });
  return { kind: "made", id, round, rows: rows.length, leftOut };
}

/**
 * A person's ask again (docs/architecture.md "Actors"): authorized for `campaigns.write`, the round drafted under the
 * actor's person, and its audit row in the round's transaction.
 */
export async function askAgainAudited(
  db: Db,
  actor: Actor,
  parentId: string,
  input: Omit<AskAgainInput, "overrideCooldown"> & { overrideCooldown?: boolean },
): Promise<AskAgainOutcome> {
  authorize(actor, "campaigns.write");
  return askAgain(db, parentId, input, requirePerson(actor).id, { audit: { actor: auditActorOf(actor), ip: auditIpOf(actor) } });
}

/**
 * The policy again as a round's row is about to be sent (the draft may have waited): a reason to leave it out now
 * (`paid`, `cooling_down`, `asked_enough`), or null to send it. Do-not-ask is checked for every campaign by the sender.
 */
export async function leftOutAtSend(db: Db, familyId: string, tag: string, cooldownOverride = false): Promise<LeftOutReason | null> {
  const key = payerKey(tag);
  const policy = await getSettings(db);
  const [facts, cooling] = await Promise.all([
    familyFacts(db, familyId, [key]),
    cooldownOverride ? new Map<string, Date>() : coolingDown(db, [key], policy.declineCooldownHours),
  ]);
  const f = facts.get(key);
  if (f?.paid) return "paid";
  if (cooling.has(key)) return "cooling_down";
  if ((f?.asks ?? 0) >= policy.maxAsksPerTag) return "asked_enough";
  return null;
}

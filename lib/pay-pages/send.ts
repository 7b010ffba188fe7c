import "server-only";

import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql } from "drizzle-orm";

import { appendSentRow } from "@/lib/campaigns/repo";
import { coolingDown } from "@/lib/campaigns/ask-again";
import { dayOf, startOfDay } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import {
  campaignRows,
  fundRequests,
  payPages,
  payPageSubmissions,
  planPeriods,
  plans,
  type FundRequestRow,
  type PayPageRow,
  type PayPageSubmissionRow,
} from "@/lib/db/schema";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { doNotAskRefusal } from "@/lib/payers/do-not-ask";
import { createKeyedFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { payPageKey } from "@/lib/requests/keys";
import { findRequestByIdempotencyKey } from "@/lib/requests/repo";
import { ServiceError } from "@/lib/service/errors";
import { getSettings } from "@/lib/settings/repo";

import { joinPaidMembers } from "./join";
import { committedCount, stateOf } from "./queries";
import { checkSurges } from "./surge";

// The pay pages' sender (docs/architecture.md "Pay pages"): the job that turns queued submissions into requests,
// through the `public` share of the service budget, never from the payer's own HTTP request. Each submission's request
// has a key derived from the submission, so a pass run twice (or after a SIGKILL) sends it once.

/** Per tag: at most 1 open request from pay pages and 3 a day (docs/decisions.md "Pay pages"). */
export const TAG_OPEN_LIMIT = 1;
export const TAG_DAILY_LIMIT = 3;

export interface PayPassResult {
  handled: number;
  /** More are queued: run again after `waitMs` (the budget's wait when it had no room). */
  more: boolean;
  waitMs: number;
}

type Hold = "stale" | "page_closed" | "do_not_ask" | "cooling_down" | "open_request" | "tag_daily_limit" | "already_asked" | "no_sender" | "error";
/** A submission still queued this long after it was made is held: its payer has long left the page. */
const STALE_MS = 30 * 60_000;

async function settle(db: Db, id: string, set: Partial<PayPageSubmissionRow>): Promise<void> {
  await db
    .update(payPageSubmissions)
    .set({ ...set, sentAt: new Date() })
    .where(and(eq(payPageSubmissions.id, id), eq(payPageSubmissions.status, "queued")));
}

/** Why this tag is not asked now, or null: do-not-ask, the cool-down, and the tag's pay-page limits. */
async function holdFor(db: Db, s: PayPageSubmissionRow, now: Date): Promise<Hold | null> {
  const timeZone = getConfig().timeZone;
  if (await doNotAskRefusal(db, s.tag, timeZone)) return "do_not_ask";
  const cooling = await coolingDown(db, [s.tagKey], (await getSettings(db)).declineCooldownHours);
  if (cooling.has(s.tagKey)) return "cooling_down";
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payPageSubmissions)
    .innerJoin(fundRequests, eq(fundRequests.id, payPageSubmissions.fundRequestId))
    .where(and(eq(payPageSubmissions.tagKey, s.tagKey), inArray(fundRequests.status, ["sending", "pending", "unknown"])));
  if ((open?.n ?? 0) >= TAG_OPEN_LIMIT) return "open_request";
  const [today] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payPageSubmissions)
    .where(
      and(
        eq(payPageSubmissions.tagKey, s.tagKey),
        isNotNull(payPageSubmissions.fundRequestId),
        gte(payPageSubmissions.createdAt, startOfDay(dayOf(now, timeZone), timeZone)),
      ),
    );
  if ((today?.n ?? 0) >= TAG_DAILY_LIMIT) return "tag_daily_limit";
  return null;
}

/**
 * An active plan's current period's campaign (the latest period due, made), or null: before its first period, when the
 * latest was missed, or when the plan is paused or ended (its latest period is then not the current one).
 */
async function currentPeriodCampaign(db: Db, planId: string, now: Date): Promise<string | null> {
  const [plan] = await db.select({ status: plans.status }).from(plans).where(eq(plans.id, planId));
  if (plan?.status !== "active") return null;
  const [period] = await db
    .select({ campaignId: planPeriods.campaignId })
    .from(planPeriods)
    .where(and(eq(planPeriods.planId, planId), lte(planPeriods.dueAt, now)))
    .orderBy(desc(planPeriods.dueAt))
    .limit(1);
  return period?.campaignId ?? null;
}

async function askedInCampaign(db: Db, campaignId: string, tagKey: string): Promise<boolean> {
  const rows = await db
    .select({ id: campaignRows.id })
    .from(campaignRows)
    .where(
      and(
        eq(campaignRows.campaignId, campaignId),
        sql`lower(regexp_replace(${campaignRows.tag}, '^@', '')) = ${tagKey}`,
        isNotNull(campaignRows.fundRequestId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Sent, or failed when the service refused it; on a plan page also a row of the current period's campaign. */
async function finishSent(db: Db, page: PayPageRow, s: PayPageSubmissionRow, request: FundRequestRow, campaignId: string | null): Promise<void> {
  if (campaignId && request.status !== "failed")
    await appendSentRow(db, campaignId, {
      tag: s.tag,
      amount: s.amount,
      description: page.title,
      businessReference: request.businessReference,
      fundRequestId: request.id,
    });
  await settle(db, s.id, { status: request.status === "failed" ? "failed" : "sent", fundRequestId: request.id });
}

/**
 * One submission: held, or sent. A request already made under the submission's key (a pass cut off after its service
 * call) is finished whatever changed since, so it is never held after it was sent. Throws a budget refusal untouched.
 */
async function handle(deps: RequestDeps, page: PayPageRow, s: PayPageSubmissionRow, now: Date): Promise<void> {
  const { db } = deps;
  const key = payPageKey(s.id);
  const campaignId = page.planId ? await currentPeriodCampaign(db, page.planId, now) : null;
  const made = await findRequestByIdempotencyKey(db, key);
  if (made) return finishSent(db, page, s, made, campaignId);
  if (now.getTime() - s.createdAt.getTime() > STALE_MS) return settle(db, s.id, { status: "held", heldReason: "stale" });
  if (stateOf(page, page.maxPayments === null ? 0 : await committedCount(db, page.id), now) !== "open")
    return settle(db, s.id, { status: "held", heldReason: "page_closed" });
  const hold = await holdFor(db, s, now);
  if (hold) return settle(db, s.id, { status: "held", heldReason: hold });
  if (!page.createdBy) return settle(db, s.id, { status: "held", heldReason: "no_sender" });
  if (campaignId && (await askedInCampaign(db, campaignId, s.tagKey))) return settle(db, s.id, { status: "held", heldReason: "already_asked" });
  const reference = page.fields.findIndex((f) => f.reference);
  const businessReference = reference >= 0 ? s.fields[reference] || null : null;
  await createKeyedFundRequest(deps, { tag: s.tag, amount: s.amount, description: page.title, businessReference, meta: { payPage: page.slug } }, key, {
    id: page.createdBy,
    name: `Pay page ${page.slug}`,
  });
  const request = await findRequestByIdempotencyKey(db, key);
  if (!request) throw new Error(`pay page submission ${s.id} has no request after its send`);
  await finishSent(db, page, s, request, campaignId);
}

/** Sends up to `max` queued submissions, oldest first; a budget with no room ends the pass with its wait. */
export async function sendPayPageSubmissions(deps: RequestDeps, max: number, signal?: AbortSignal, now = () => new Date()): Promise<PayPassResult> {
  const { db } = deps;
  const queued = await db
    .select()
    .from(payPageSubmissions)
    .where(eq(payPageSubmissions.status, "queued"))
    .orderBy(asc(payPageSubmissions.createdAt))
    .limit(max);
  const pages = new Map<string, PayPageRow>();
  let handled = 0;
  for (const s of queued) {
    if (signal?.aborted) break;
    let page = pages.get(s.pageId);
    if (!page) {
      [page] = await db.select().from(payPages).where(eq(payPages.id, s.pageId));
      if (!page) continue;
      pages.set(page.id, page);
    }
    try {
      await handle(deps, page, s, now());
    } catch (error) {
      if (error instanceof ServiceError && error.budgetRefused) {
        await afterPass(db, [...pages.keys()], now());
        return { handled, more: true, waitMs: error.retryAfterMs ?? 5_000 };
      }
      // One submission that cannot be handled never blocks the queue behind it: it is held, and the log says why.
      console.error(`[pay-pages] submission ${s.id} could not be sent: ${safeErrorSummary(error)}`);
      await settle(db, s.id, { status: "held", heldReason: "error" });
    }
    handled += 1;
  }
  await afterPass(db, [...pages.keys()], now());
  return { handled, more: queued.length === max, waitMs: 0 };
}

/** After each pass: the surges of the pages it touched, and plan members whose pay-page request was paid. */
async function afterPass(db: Db, pageIds: readonly string[], now: Date): Promise<void> {
  await checkSurges(db, pageIds, now);
  await joinPaidMembers(db, now);
}

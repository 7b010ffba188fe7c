import "server-only";

import { and, asc, desc, eq, gte, inArray, isNotNull, lte, sql } from "drizzle-orm";

import { appendSentRow } from "@/lib/campaigns/repo";
import { coolingDown } from "@/lib/campaigns/ask-again";
import { dayOf, startOfDay } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { queryRows, type Db } from "@/lib/db/client";
import { campaignRows, fundRequests, payPages, payPageSubmissions, planPeriods, type PayPageRow, type PayPageSubmissionRow } from "@/lib/db/schema";
import { openPayPageSurge } from "@/lib/exceptions/detect";
import { doNotAskRefusal } from "@/lib/payers/do-not-ask";
import { changeMembers } from "@/lib/plans/repo";
import { createKeyedFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { payPageKey } from "@/lib/requests/keys";
import { findRequestByIdempotencyKey } from "@/lib/requests/repo";
import { ServiceError } from "@/lib/service/errors";
import { getSettings } from "@/lib/settings/repo";

import { acceptedCount, stateOf } from "./queries";

// The pay pages' sender (docs/architecture.md "Pay pages"): the job that turns queued submissions into requests,
// through the `public` share of the service budget, never from the payer's own HTTP request. Each submission's request
// has a key derived from the submission, so a pass run twice (or after a SIGKILL) sends it once.

/** Per tag: at most 1 open request from pay pages and 3 a day (docs/decisions.md "Pay pages"). */
export const TAG_OPEN_LIMIT = 1;
export const TAG_DAILY_LIMIT = 3;
// A surge: the last hour over 10× the page's usual hour, the usual counted as at least 5 so a new page's first busy
// hour (a WhatsApp post) is not one.
const SURGE_FACTOR = 10;
const SURGE_FLOOR = 5;

export interface PayPassResult {
  handled: number;
  /** More are queued: run again after `waitMs` (the budget's wait when it had no room). */
  more: boolean;
  waitMs: number;
}

type Hold = "page_closed" | "do_not_ask" | "cooling_down" | "open_request" | "tag_daily_limit" | "already_asked" | "no_sender";

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

/** The plan's current period's campaign (the latest period due and made), or null while none has come. */
async function currentPeriodCampaign(db: Db, planId: string, now: Date): Promise<string | null> {
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

/** One submission: held, joined (a plan page before its first period), or sent. Throws a budget refusal untouched. */
async function handle(deps: RequestDeps, page: PayPageRow, s: PayPageSubmissionRow, now: Date): Promise<void> {
  const { db } = deps;
  if (stateOf(page, page.maxPayments === null ? 0 : await acceptedCount(db, page.id), now) !== "open")
    return settle(db, s.id, { status: "held", heldReason: "page_closed" });
  const hold = await holdFor(db, s, now);
  if (hold) return settle(db, s.id, { status: "held", heldReason: hold });
  if (!page.createdBy) return settle(db, s.id, { status: "held", heldReason: "no_sender" });
  const reference = page.fields.findIndex((f) => f.reference);
  const businessReference = reference >= 0 ? s.fields[reference] || null : null;
  let campaignId: string | null = null;
  if (page.planId) {
    // Joins from the current period: a second submission finds the member there and adds nobody.
    await changeMembers(db, page.planId, { add: [{ tag: s.tag, amount: s.amount, description: "" }], remove: [], change: [] });
    campaignId = await currentPeriodCampaign(db, page.planId, now);
    if (!campaignId) return settle(db, s.id, { status: "joined" });
    if (await askedInCampaign(db, campaignId, s.tagKey)) return settle(db, s.id, { status: "held", heldReason: "already_asked" });
  }
  const key = payPageKey(s.id);
  const outcome = await createKeyedFundRequest(
    deps,
    { tag: s.tag, amount: s.amount, description: page.title, businessReference, meta: { payPage: page.slug } },
    key,
    { id: page.createdBy, name: `Pay page ${page.slug}` },
  );
  const fundRequestId = (await findRequestByIdempotencyKey(db, key))?.id;
  if (!fundRequestId) throw new Error(`pay page submission ${s.id} has no request after its send`);
  if (campaignId) await appendSentRow(db, campaignId, { tag: s.tag, amount: s.amount, description: page.title, businessReference, fundRequestId });
  await settle(db, s.id, { status: outcome.kind === "service_failed" ? "failed" : "sent", fundRequestId });
}

/** Opens a `pay_page_surge` for each page whose last hour ran over 10× its usual hour of the past week. */
async function checkSurges(db: Db, pageIds: readonly string[], now: Date): Promise<void> {
  for (const pageId of pageIds) {
    const [row] = await queryRows<{ last_hour: number; week: number; slug: string }>(
      db,
      sql`select count(*) filter (where s.created_at > ${now}::timestamptz - interval '1 hour')::int as last_hour,
            count(*) filter (where s.created_at <= ${now}::timestamptz - interval '1 hour')::int as week, p.slug
          from pay_pages p left join pay_page_submissions s on s.page_id = p.id and s.created_at > ${now}::timestamptz - interval '7 days 1 hour'
          where p.id = ${pageId}::uuid group by p.slug`,
    );
    if (!row) continue;
    const usual = Math.max(SURGE_FLOOR, row.week / (7 * 24));
    if (row.last_hour > SURGE_FACTOR * usual) {
      const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
      await openPayPageSurge(db, { pageId, slug: row.slug, hour, count: row.last_hour, usual });
    }
  }
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
        await checkSurges(db, [...pages.keys()], now());
        return { handled, more: true, waitMs: error.retryAfterMs ?? 5_000 };
      }
      throw error;
    }
    handled += 1;
  }
  await checkSurges(db, [...pages.keys()], now());
  return { handled, more: queued.length === max, waitMs: 0 };
}

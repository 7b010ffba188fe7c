import "server-only";

import { randomBytes } from "node:crypto";

import { and, eq, gte, sql } from "drizzle-orm";

import type { PublicActor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { amountFits, type PaySubmit } from "@/lib/client/pay-pages/schemas";
import type { PayPageState } from "@/lib/client/pay-pages/view";
import { payerKey } from "@/lib/client/payers/tag";
import type { Db } from "@/lib/db/client";
import { payPages, payPageSubmissions } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { hashedAddress } from "@/lib/http/address-bucket";

import { spendChallenge, type ChallengeCheck } from "./challenge";
import { acceptedCount, amountOf, stateOf, submittedToday } from "./queries";
import { wakePayPageSender } from "./send.job";

// A payer submits a pay page (docs/architecture.md "Pay pages"): the page's state and amount, the proof of work, the
// address's limits and the page's daily limit are checked, then the submission is queued for the send job. Nothing
// here reads the tag's history, so the answer is the same, in bytes and in time, whatever the tag is.

/** Per address: at most 5 submissions in 10 minutes and 20 in 24 hours (docs/decisions.md "Pay pages"). */
export const ADDRESS_LIMITS = [
  { count: 5, windowMs: 10 * 60_000 },
  { count: 20, windowMs: 24 * 3_600_000 },
] as const;

export type SubmitOutcome =
  | { kind: "accepted"; token: string }
  | { kind: "not_found" }
  | { kind: "closed"; state: Exclude<PayPageState, "open"> }
  | { kind: "invalid"; fields: Record<string, string> }
  | { kind: "challenge_refused"; reason: Extract<ChallengeCheck, { ok: false }>["reason"] }
  | { kind: "address_limited"; retryAfterSeconds: number }
  | { kind: "page_daily_limit" };

/** A keyed hash of the address's bucket: limits count it without the submissions table ever holding an address. */
export function addressKey(ip: string | null): string {
  return hashedAddress(ip, "pay-address");
}

function checkAnswers(page: typeof payPages.$inferSelect, input: PaySubmit): { amount: string } | { fields: Record<string, string> } {
  const errors: Record<string, string> = {};
  const amount = amountOf(page);
  let chosen: string | null = null;
  if ("fixed" in amount) chosen = amount.fixed;
  else if (!input.amount) errors.amount = "Enter the amount you are paying";
  else if (!amountFits(amount, input.amount)) errors.amount = `Enter an amount from ₦${amount.min} to ₦${amount.max}`;
  else chosen = input.amount;
  if (input.fields.length > page.fields.length) errors.fields = `This page asks ${page.fields.length} questions`;
  page.fields.forEach((f, i) => {
    if (f.required && !input.fields[i]) errors[`fields.${i}`] = `Answer “${f.label}”`;
  });
  if (Object.keys(errors).length > 0 || chosen === null) return { fields: errors };
  return { amount: chosen };
}

/** Seconds until the oldest counted submission leaves the first window that is full; null while none is. */
async function addressWait(tx: Db, key: string, now: Date): Promise<number | null> {
  for (const limit of ADDRESS_LIMITS) {
    const since = new Date(now.getTime() - limit.windowMs);
    const rows = await tx
      .select({ at: payPageSubmissions.createdAt })
      .from(payPageSubmissions)
      .where(and(eq(payPageSubmissions.addressKey, key), gte(payPageSubmissions.createdAt, since)))
      .orderBy(sql`${payPageSubmissions.createdAt} desc`)
      .limit(limit.count);
    const oldest = rows[limit.count - 1];
    if (oldest) return Math.max(1, Math.ceil((oldest.at.getTime() + limit.windowMs - now.getTime()) / 1000));
  }
  return null;
}

export async function submitPayPage(db: Db, actor: PublicActor, slug: string, input: PaySubmit, now = new Date()): Promise<SubmitOutcome> {
  authorize(actor, "pay_pages.submit");
  const [page] = await db.select().from(payPages).where(eq(payPages.slug, slug));
  if (!page) return { kind: "not_found" };
  const state = stateOf(page, page.maxPayments === null ? 0 : await acceptedCount(db, page.id), now);
  if (state !== "open") return { kind: "closed", state };
  const answers = checkAnswers(page, input);
  if ("fields" in answers) return { kind: "invalid", fields: answers.fields };
  const challenge = await spendChallenge(db, input.altcha);
  if (!challenge.ok) return { kind: "challenge_refused", reason: challenge.reason };
  const key = addressKey(actor.ip);
  const outcome = await db.transaction(async (tx): Promise<SubmitOutcome> => {
    // One submission at a time per address and per page: the counts below and the insert are read and written under it.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`pay-address:${key}`}, 0))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`pay-page:${page.id}`}, 0))`);
    const wait = await addressWait(tx, key, now);
    if (wait !== null) return { kind: "address_limited", retryAfterSeconds: wait };
    if ((await submittedToday(tx, page.id, now)) >= page.dailyLimit) return { kind: "page_daily_limit" };
    const token = randomBytes(18).toString("base64url");
    await tx.insert(payPageSubmissions).values({
      pageId: page.id,
      token,
      tag: input.tag,
      tagKey: payerKey(input.tag),
      amount: answers.amount,
      fields: input.fields,
      addressKey: key,
      createdAt: now,
    });
    await appendEvent(tx, "pay_page.submitted", { pageId: page.id, slug: page.slug, tag: input.tag, amount: answers.amount }, now);
    return { kind: "accepted", token };
  });
  if (outcome.kind === "accepted") await wakePayPageSender();
  return outcome;
}

import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import type { PublicActor } from "@/lib/actors/actor";
import type { Db } from "@/lib/db/client";
import { payPageSubmissions } from "@/lib/db/schema";
import { createPayPage } from "@/lib/pay-pages/manage";
import { submitPayPage } from "@/lib/pay-pages/submit";
import { callRoute, inProcessApp } from "@/tests/support/in-process-app";
import { freshAltcha, PAY_APP_ENV, payInit, payPageInput } from "@/tests/support/pay-challenge";
import { newTag } from "@/tests/support/request-deps";
import { fakeAddress } from "@/tests/support/sign-in";

// The pay form's limits (docs/decisions.md "Pay pages"): an address may submit 5 times in 10 minutes and 20 times in
// 24 hours, a page takes its daily limit; past any of them the answer is 429 with Retry-After and nothing is queued.

const app = inProcessApp(PAY_APP_ENV);

let db: Db;

/** A page of its own (so no other test's submissions count against it). */
async function newPage(over: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const made = await createPayPage(db, await app.person("operator"), payPageInput(over));
  if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
  return made.page;
}

async function submissions(pageId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payPageSubmissions)
    .where(eq(payPageSubmissions.pageId, pageId));
  return row?.n ?? 0;
}

const post = async (slug: string, address: string) =>
  callRoute<{ statusUrl?: string }>(postPay, `/api/public/pay/${slug}`, payInit(slug, { tag: newTag("ada"), altcha: await freshAltcha() }, address));

// A day far from the run's own (so nothing the other tests submitted now counts): the 24-hour window is walked with `now`.
const DAY = new Date("2031-03-10T08:00:00Z");
const minutes = (n: number) => new Date(DAY.getTime() + n * 60_000);

beforeAll(async () => {
  db = await app.db();
});

describe("an address's limits on the pay form", () => {
  it("refuses the sixth submission within 10 minutes with 429 rate_limited and Retry-After, queueing nothing; another address goes on", async () => {
    const page = await newPage();
    const address = fakeAddress();
    for (let i = 0; i < 5; i += 1) {
      const answer = await post(page.slug, address);
      expect(answer.status, answer.json.message).toBe(202);
    }
    const before = await submissions(page.id);
    expect(before).toBe(5);

    const sixth = await post(page.slug, address);
    expect([sixth.status, sixth.json.code]).toEqual([429, "rate_limited"]);
    const retryAfter = Number(sixth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(sixth.json.message).toContain("Too many tries from this connection");
    expect(await submissions(page.id)).toBe(before);

    const other = await post(page.slug, fakeAddress());
    expect(other.status, other.json.message).toBe(202);
    expect(await submissions(page.id)).toBe(before + 1);
  });

  it("refuses the 21st submission within 24 hours until the first leaves the window", async () => {
    const page = await newPage();
    const actor: PublicActor = { kind: "public", ip: fakeAddress() };
    const submit = async (at: Date) => submitPayPage(db, actor, page.slug, { tag: newTag("bola"), fields: [], altcha: await freshAltcha() }, at);
    // 20 submissions 11 minutes apart: never 5 in any 10 minutes, all 20 within 24 hours.
    for (let i = 0; i < 20; i += 1) expect((await submit(minutes(i * 11))).kind).toBe("accepted");

    const refused = await submit(minutes(20 * 11));
    // The first submission (at minute 0) leaves the window 24 hours after it.
    expect(refused).toEqual({ kind: "address_limited", retryAfterSeconds: (24 * 60 - 20 * 11) * 60 });
    expect(await submissions(page.id)).toBe(20);
    // A second before the first leaves the window, still refused; a second after it, taken.
    expect((await submit(minutes(24 * 60 - 1 / 60))).kind).toBe("address_limited");
    expect((await submit(minutes(24 * 60 + 1 / 60))).kind).toBe("accepted");
    expect(await submissions(page.id)).toBe(21);
  });

  it("takes a page's daily limit from all addresses together, then answers 429 through the form", async () => {
    const page = await newPage({ dailyLimit: 2 });
    const submit = async (at: Date) =>
      submitPayPage(db, { kind: "public", ip: fakeAddress() }, page.slug, { tag: newTag("chidi"), fields: [], altcha: await freshAltcha() }, at);
    expect((await submit(minutes(0))).kind).toBe("accepted");
    expect((await submit(minutes(1))).kind).toBe("accepted");
    expect((await submit(minutes(2))).kind).toBe("page_daily_limit");
    expect(await submissions(page.id)).toBe(2);
    // The next day (in the app's time zone, Lagos: 08:00 UTC is 09:00 there) it takes submissions again.
    expect((await submit(minutes(24 * 60))).kind).toBe("accepted");

    // Through the form, a page full for today (its two for today made now) is a 429 with Retry-After.
    const today = await newPage({ dailyLimit: 2 });
    for (let i = 0; i < 2; i += 1) expect((await post(today.slug, fakeAddress())).status).toBe(202);
    const full = await post(today.slug, fakeAddress());
    expect([full.status, full.json.code]).toEqual([429, "rate_limited"]);
    expect(full.headers.get("retry-after")).toBe("3600");
    expect(await submissions(today.id)).toBe(2);
  });
});

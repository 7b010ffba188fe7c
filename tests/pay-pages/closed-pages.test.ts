import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import type { StaffActor } from "@/lib/actors/actor";
import type { Db } from "@/lib/db/client";
import { fundRequests, payPageSubmissions } from "@/lib/db/schema";
import { changePayPage, createPayPage } from "@/lib/pay-pages/manage";
import { viewPublicPage } from "@/lib/pay-pages/queries";
import { callRoute, inProcessApp, type Answer } from "@/tests/support/in-process-app";
import { freshAltcha, PAY_APP_ENV, payInit, payPageInput, payPass } from "@/tests/support/pay-challenge";
import { newTag } from "@/tests/support/request-deps";
import { CREATE_CALL, sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress } from "@/tests/support/sign-in";

// A page that is off, past its expiry or at its most payments takes nothing (docs/architecture.md "Pay pages"): the
// form answers 409 with a plain sentence and the page's state, nothing is queued, and a submission queued before the
// page closed is held by the send job, not sent.

const app = inProcessApp(PAY_APP_ENV);

let db: Db;
let operator: StaffActor;

beforeAll(async () => {
  db = await app.db();
  operator = await app.person("operator");
});

async function newPage(over: Record<string, unknown> = {}): Promise<{ id: string; slug: string }> {
  const made = await createPayPage(db, operator, payPageInput(over));
  if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
  return made.page;
}

const post = async (slug: string) =>
  callRoute<{ statusUrl?: string; state?: string }>(
    postPay,
    `/api/public/pay/${slug}`,
    payInit(slug, { tag: newTag("ada"), altcha: await freshAltcha() }, fakeAddress()),
  );

async function submissionsOf(pageId: string) {
  return db.select().from(payPageSubmissions).where(eq(payPageSubmissions.pageId, pageId));
}

async function requestCount(): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(fundRequests);
  return row?.n ?? 0;
}

/** 409 conflict naming the page's state, with a plain sentence that says nothing was sent. */
function expectClosed(answer: Answer<{ state?: string }>, state: string, words: string): void {
  expect([answer.status, answer.json.code, answer.json.data.state]).toEqual([409, "conflict", state]);
  expect(answer.json.message).toContain(words);
  expect(answer.json.message).toContain("Nothing was sent.");
}

describe("a closed pay page", () => {
  it("that is off answers 409, queues nothing, and a submission queued before it was turned off is held, not sent", async () => {
    const control = sandboxControl(app.sandbox);
    const page = await newPage();
    expect((await post(page.slug)).status).toBe(202);
    const changed = await changePayPage(db, operator, page.id, { active: false });
    expect(changed.kind).toBe("changed");

    expectClosed(await post(page.slug), "off", "not taking payments");
    const [calls, requests] = [await control.count(CREATE_CALL), await requestCount()];
    await payPass(db);
    expect((await submissionsOf(page.id)).map((s) => [s.status, s.heldReason, s.fundRequestId])).toEqual([["held", "page_closed", null]]);
    expect(await control.count(CREATE_CALL)).toBe(calls);
    expect(await requestCount()).toBe(requests);

    const off = await newPage({ active: false });
    expectClosed(await post(off.slug), "off", "not taking payments");
    expect(await submissionsOf(off.id)).toEqual([]);
  });

  it("past its expiry answers 409 and queues nothing", async () => {
    const page = await newPage({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expectClosed(await post(page.slug), "expired", "has closed");
    expect(await submissionsOf(page.id)).toEqual([]);
    expect((await viewPublicPage(db, page.slug))?.state).toBe("expired");
  });

  it("at its most payments answers full, and holds what was queued before", async () => {
    const control = sandboxControl(app.sandbox);
    const page = await newPage({ maxPayments: 1 });
    expect((await post(page.slug)).status).toBe(202);
    await payPass(db);
    const [first] = await submissionsOf(page.id);
    if (!first?.fundRequestId) throw new Error(`the first submission was not sent: ${first?.status}`);
    // A second payer submits while the first request is still open (queued), then the first payer pays.
    expect((await post(page.slug)).status).toBe(202);
    await db.update(fundRequests).set({ status: "accepted", decidedAt: new Date() }).where(eq(fundRequests.id, first.fundRequestId));

    expectClosed(await post(page.slug), "full", "all the payments it can");
    expect(await submissionsOf(page.id)).toHaveLength(2);
    const calls = await control.count(CREATE_CALL);
    await payPass(db);
    const second = (await submissionsOf(page.id)).find((s) => s.id !== first.id);
    expect([second?.status, second?.heldReason, second?.fundRequestId]).toEqual(["held", "page_closed", null]);
    expect(await control.count(CREATE_CALL)).toBe(calls);
    expect((await viewPublicPage(db, page.slug))?.state).toBe("full");
  });

  it("of one payment sends no second request while the first is still out", async () => {
    const control = sandboxControl(app.sandbox);
    const page = await newPage({ maxPayments: 1 });
    for (let i = 0; i < 3; i++) expect((await post(page.slug)).status).toBe(202);
    const calls = await control.count(CREATE_CALL);
    await payPass(db);
    const statuses = (await submissionsOf(page.id)).map((s) => [s.status, s.heldReason]).sort();
    expect(statuses).toEqual([
      ["held", "page_closed"],
      ["held", "page_closed"],
      ["sent", null],
    ]);
    expect(await control.count(CREATE_CALL)).toBe(calls + 1);
  });

  it("at its daily limit says so when opened, before anyone types a tag", async () => {
    const page = await newPage({ dailyLimit: 1 });
    expect((await viewPublicPage(db, page.slug))?.state).toBe("open");
    expect((await post(page.slug)).status).toBe(202);
    expect((await viewPublicPage(db, page.slug))?.state).toBe("today_full");
    expect((await post(page.slug)).status).toBe(429);
    // Nothing left queued for the other tests' passes to send.
    await payPass(db);
  });

  it("holds a submission still queued 30 minutes after it was made: its payer has left", async () => {
    const control = sandboxControl(app.sandbox);
    const page = await newPage();
    expect((await post(page.slug)).status).toBe(202);
    const calls = await control.count(CREATE_CALL);
    await payPass(db, 100, () => new Date(Date.now() + 31 * 60_000));
    expect((await submissionsOf(page.id)).map((s) => [s.status, s.heldReason])).toEqual([["held", "stale"]]);
    expect(await control.count(CREATE_CALL)).toBe(calls);
  });
});

import { createChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { GET as challengeRoute } from "@/app/api/public/pay/challenge/route";
import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import type { StaffActor } from "@/lib/actors/actor";
import type { Db } from "@/lib/db/client";
import { payPageSubmissions } from "@/lib/db/schema";
import { CHALLENGE_TTL_MS } from "@/lib/pay-pages/challenge";
import { createPayPage } from "@/lib/pay-pages/manage";
import { callRoute, inProcessApp, type Answer } from "@/tests/support/in-process-app";
import { freshAltcha, PAY_APP_ENV, payInit, payPageInput, solvedChallenge } from "@/tests/support/pay-challenge";
import { newTag } from "@/tests/support/request-deps";
import { fakeAddress } from "@/tests/support/sign-in";

// The pay form's proof of work (docs/architecture.md "Pay pages"): each solved challenge is spent once, and one that
// was altered or ran out is refused before anything is queued, a 422 naming `altcha`.

const app = inProcessApp(PAY_APP_ENV);

let db: Db;
let operator: StaffActor;
let slug: string;
let pageId: string;

beforeAll(async () => {
  db = await app.db();
  operator = await app.person("operator");
  const made = await createPayPage(db, operator, payPageInput());
  if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
  slug = made.page.slug;
  pageId = made.page.id;
});

const queued = async () =>
  (
    await db
      .select({ n: sql<number>`count(*)::int` })
      .from(payPageSubmissions)
      .where(eq(payPageSubmissions.pageId, pageId))
  )[0]?.n ?? 0;

const pay = (altcha: string, address = fakeAddress()) =>
  callRoute<{ statusUrl?: string }>(postPay, `/api/public/pay/${slug}`, payInit(slug, { tag: newTag("ada"), altcha }, address));

/** A 422 whose only field error is `altcha`, with `words` in its message. */
function expectAltchaRefused(answer: Answer, words: string): void {
  expect([answer.status, answer.json.code]).toEqual([422, "validation_failed"]);
  expect(Object.keys((answer.json.data as { fieldErrors: Record<string, unknown> }).fieldErrors)).toEqual(["altcha"]);
  expect(answer.json.message).toContain(words);
}

/** The challenge inside a form's `altcha` value, and its solution. */
const decoded = (altcha: string) =>
  JSON.parse(Buffer.from(altcha, "base64").toString("utf8")) as { challenge: Challenge; solution: { counter: number; derivedKey: string } };
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("the pay form's challenge", () => {
  it("comes from the public challenge route, and solved it lets one submission through", async () => {
    const given = await callRoute<Challenge>(challengeRoute, "/api/public/pay/challenge");
    expect(given.status).toBe(200);
    expect(given.headers.get("cache-control")).toBe("no-store");
    const expiresAt = (given.json.data.parameters.expiresAt ?? 0) * 1000;
    expect(expiresAt - Date.now()).toBeGreaterThan(CHALLENGE_TTL_MS - 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(CHALLENGE_TTL_MS);
    const answer = await pay(await solvedChallenge(given.json.data));
    expect(answer.status, answer.json.message).toBe(202);
    expect(answer.json.data.statusUrl).toMatch(new RegExp(`^/pay/${slug}/s/[A-Za-z0-9_-]{24}$`));
  });

  it("replayed is refused: the second POST with the same altcha is a 422 naming altcha, and queues nothing", async () => {
    const altcha = await freshAltcha();
    const first = await pay(altcha);
    expect(first.status, first.json.message).toBe(202);
    const before = await queued();
    // From another address too: the challenge is spent, whoever sends it again.
    const again = await pay(altcha);
    expectAltchaRefused(again, "already used");
    expect(await queued()).toBe(before);
  });

  it("replayed by two submissions at once lets exactly one through", async () => {
    const altcha = await freshAltcha();
    const answers = await Promise.all([pay(altcha), pay(altcha), pay(altcha)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 422, 422]);
  });

  it("tampered with is refused: a later expiry under the old signature, another key, or a challenge not signed here", async () => {
    const before = await queued();
    const { challenge, solution } = decoded(await freshAltcha());
    const longer = { ...challenge, parameters: { ...challenge.parameters, expiresAt: (challenge.parameters.expiresAt ?? 0) + 3600 } };
    expectAltchaRefused(await pay(encoded({ challenge: longer, solution })), "did not pass");
    const wrongKey = solution.derivedKey.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expectAltchaRefused(await pay(encoded({ challenge, solution: { ...solution, derivedKey: wrongKey } })), "did not pass");
    // Made and signed elsewhere (another secret): solved honestly, still not ours.
    const forged = await createChallenge({
      algorithm: "SHA-256",
      cost: 1,
      counter: 5_000,
      deriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      hmacSignatureSecret: "f".repeat(43),
      hmacKeySignatureSecret: "k".repeat(43),
    });
    expectAltchaRefused(await pay(await solvedChallenge(forged)), "did not pass");
    expectAltchaRefused(await pay(Buffer.from("not a challenge").toString("base64")), "did not finish");
    expect(await queued()).toBe(before);
  });

  it("expired is refused, and a good one after it still goes through", async () => {
    const before = await queued();
    // Made a second past its 5 minutes ago, as a browser left open would hold it.
    const stale = await freshAltcha(Date.now() - CHALLENGE_TTL_MS - 1_000);
    expectAltchaRefused(await pay(stale), "ran out");
    expect(await queued()).toBe(before);
    expect((await pay(await freshAltcha())).status).toBe(202);
    expect(await queued()).toBe(before + 1);
  });
});

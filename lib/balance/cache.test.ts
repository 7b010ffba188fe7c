import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";

import { getDatabase, getDb } from "@/lib/db";
import { balanceCache } from "@/lib/db/schema";

import { POST as webhook } from "@/app/api/webhooks/peer-transfer/route";
import { getApiService } from "@/lib/service/app-client";
import { budgetSpent } from "@/lib/service/budget";
import { ServiceError } from "@/lib/service/errors";
import type { Sandbox } from "@/sandbox/server";
import { copyPgliteTemplate } from "@/tests/support/db-template";
import { payload } from "@/tests/support/payloads";
import { startTestSandbox } from "@/tests/support/sandbox";
import { BALANCE_CALL, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { waitFor } from "@/tests/support/wait-for";

import { BALANCE_TTL_MS, getBalanceView, invalidateBalance, MIN_REFRESH_AGE_MS } from "./cache";

// The balance cache uses the app's service singleton, which reads its configuration from the
// environment once. Each test file runs in its own process, so pointing the environment at this
// file's sandbox before the first call is enough; the process-wide holders are cleared anyway in
// case an earlier file in the same worker built them.

let sb: Sandbox;
let control: SandboxControl;
const savedEnv = { ...process.env };
const HOLDERS = ["fundboard.config", "fundboard.service", "fundboard.balance-cache"].map((k) => Symbol.for(k));

function clearHolders(): void {
  const g = globalThis as unknown as Record<symbol, unknown>;
  for (const key of HOLDERS) delete g[key];
}

beforeAll(async () => {
  // A "slow" call takes 1 s: long enough to land an invalidation while it is under way.
  sb = await startTestSandbox({ apiKey: "balance-test-key", slowDelayMs: 1_000 });
  control = sandboxControl(sb);
  // A "real" service configuration pointing at the sandbox: no DATA_DIR file is written.
  process.env.SERVICE_BASE_URL = sb.apiUrl;
  process.env.SERVICE_VERIFY_BASE_URL = sb.verifyUrl;
  process.env.SERVICE_API_KEY = sb.apiKey;
  process.env.AUTH_SECRET = "a".repeat(40);
  // The shared cache and the service budget live in this embedded database.
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "fundboard-balance-"));
  copyPgliteTemplate(inject("pgliteTemplate"), process.env.DATA_DIR);
  clearHolders();
});

afterAll(async () => {
  // The embedded database goes with its folder, which is this run's alone.
  await (await getDatabase()).close();
  rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  clearHolders();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  await sb.close();
});

beforeEach(async () => {
  await invalidateBalance();
  // Each test starts with the whole service budget.
  await (await getDb()).execute(sql`delete from service_calls`);
  await control.reset();
  vi.restoreAllMocks();
});

describe("balance cache", () => {
  it("shows the service's wallets, main first, with an exact total in the service's format", async () => {
    const view = await getBalanceView();
    expect(view.currency).toBe("NGN");
    expect(await control.count(BALANCE_CALL)).toBe(1);
    // The main wallet grows with any acceptance another test makes (in any order): read from the service itself.
    const res = await fetch(`${sb.apiUrl}/api/v1/business/balance`, { headers: { authorization: `Bearer ${sb.apiKey}` } });
    const main = ((await res.json()) as { data: { wallets: { main_wallet: boolean; balance: number; formatted_balance: string }[] } }).data.wallets.find(
      (w) => w.main_wallet,
    );
    if (!main) throw new Error("the sandbox has no main wallet");
    expect(view.wallets[0]).toEqual({ name: "Main wallet", main: true, balanceMinor: main.balance, formatted: main.formatted_balance });
    expect(view.wallets.map((w) => w.formatted)).toEqual([main.formatted_balance, "NGN 2,500.01", "NGN 0.00", "NGN 98,765,432.10"]);
    // The seeded main wallet (NGN 1,234,567.89) makes 10,000,249,999.75 kobo, summed exactly; each acceptance adds to it.
    const extraKobo = BigInt(main.balance) - 123456789n;
    expect(view.totalFormatted).toBe(
      `NGN ${(10_000_250_000n + extraKobo)
        .toString()
        .replace(/(\d+)(\d{2})$/, "$1.$2")
        .replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",")}`,
    );
    expect(Date.parse(view.fetchedAt)).not.toBeNaN();
  });

  it("serves repeat reads from the cache within the TTL, and calls again after it", async () => {
    const first = await getBalanceView();
    const second = await getBalanceView();
    expect(second).toEqual(first);
    expect(await control.count(BALANCE_CALL)).toBe(1);

    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + BALANCE_TTL_MS + 1);
    const later = await getBalanceView();
    vi.restoreAllMocks();
    expect(later.fetchedAt).not.toBe(first.fetchedAt);
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("makes one service call for many concurrent readers", async () => {
    const views = await Promise.all(Array.from({ length: 25 }, () => getBalanceView()));
    expect(new Set(views.map((v) => v.fetchedAt)).size).toBe(1);
    expect(await control.count(BALANCE_CALL)).toBe(1);
  });

  it("refreshes on request only when the value is at least five seconds old, one call for a burst of refreshes", async () => {
    expect(MIN_REFRESH_AGE_MS).toBeGreaterThanOrEqual(5_000);
    const base = await getBalanceView();
    // A refresh right after a read, and one 4.9 s after the value was fetched (the clock driven from its
    // fetchedAt, so a slow machine cannot age it), is served from the cache.
    expect(await getBalanceView({ fresh: true })).toEqual(base);
    const fetchedAt = Date.parse(base.fetchedAt);
    vi.spyOn(Date, "now").mockReturnValue(fetchedAt + 4_900);
    expect(await getBalanceView({ fresh: true })).toEqual(base);
    vi.restoreAllMocks();
    expect(await control.count(BALANCE_CALL)).toBe(1);

    // Older than MIN_REFRESH_AGE_MS (but within the TTL): a burst of refreshes makes one call, and plain reads keep the cached value.
    vi.spyOn(Date, "now").mockReturnValue(fetchedAt + MIN_REFRESH_AGE_MS + 1);
    const burst = await Promise.all([getBalanceView({ fresh: true }), getBalanceView({ fresh: true }), getBalanceView({ fresh: true })]);
    vi.restoreAllMocks();
    expect(burst[0]?.fetchedAt).not.toBe(base.fetchedAt);
    expect(new Set(burst.map((v) => v.fetchedAt)).size).toBe(1);
    expect(await control.count(BALANCE_CALL)).toBe(2);
    expect(await getBalanceView()).toEqual(burst[0]);
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("shows the grown main wallet after an acceptance once invalidated", async () => {
    const before = await getBalanceView();
    const requestId = await control.createDirect({ amount: 1000, tag: "balance.payer", description: "Top up" });
    await control.accept(requestId);
    expect(await getBalanceView()).toEqual(before);

    await invalidateBalance();
    const after = await getBalanceView();
    const grown = (after.wallets[0]?.balanceMinor ?? 0) - (before.wallets[0]?.balanceMinor ?? 0);
    // ₦1,000 less the service's fee, in kobo.
    expect(grown).toBeGreaterThan(0);
    expect(grown).toBeLessThanOrEqual(100_000);
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("a payment recorded through the webhook route drops the shared value: the next read goes to the service; a repeat delivery drops nothing", async () => {
    const fetchedAt = async () => (await (await getDb()).select({ fetchedAt: balanceCache.fetchedAt }).from(balanceCache))[0]?.fetchedAt ?? null;
    const deliver = (body: string) =>
      webhook(new Request("http://localhost/api/webhooks/peer-transfer", { method: "POST", body, headers: signedHeaders(body, sb.apiKey) }));
    await getBalanceView();
    expect(await fetchedAt()).not.toBeNull();
    expect(await control.count(BALANCE_CALL)).toBe(1);

    const body = JSON.stringify(payload({ meta: { peer_tag: "balance.drop", name: "Drop" } }));
    expect((await deliver(body)).status).toBe(200);
    // Dropped (not merely old): the value is gone whatever the clock says, and the next read asks the service.
    expect(await fetchedAt()).toBeNull();
    await getBalanceView();
    expect(await control.count(BALANCE_CALL)).toBe(2);
    expect(await fetchedAt()).not.toBeNull();

    // The same delivery again records nothing new, so the value read just now stays.
    expect((await deliver(body)).status).toBe(200);
    expect(await fetchedAt()).not.toBeNull();
  });

  it("a call under way when a payment invalidates the balance is answered but not cached; the next read asks again", async () => {
    await control.fault("/api/v1/business/balance", "slow", 1);
    const inFlight = getBalanceView();
    // The service has the call (counted on arrival) and holds its answer for a second: invalidate now.
    await waitFor("the balance call to reach the service", async () => ((await control.count(BALANCE_CALL)) === 1 ? true : undefined), 5_000, 20);
    await invalidateBalance();
    const answered = await inFlight;
    expect(answered.wallets.length).toBeGreaterThan(0);
    // Not stored as fresh: the lease the invalidation cleared no longer matches, so nothing was written.
    const [row] = await (await getDb()).select({ fetchedAt: balanceCache.fetchedAt }).from(balanceCache);
    expect(row?.fetchedAt ?? null).toBeNull();
    await getBalanceView();
    expect(await control.count(BALANCE_CALL)).toBe(2);
    // That one is kept: a third read is served from the cache.
    await getBalanceView();
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("answers the last known balance, with its own time, while the deployment's service budget is spent", async () => {
    const known = await getBalanceView();
    await invalidateBalance();
    // People's sends spent all but the send reserve (9 of SERVICE_RATE_LIMIT_PER_MIN, 90 by default): no room for a read.
    await (await getDb()).execute(sql`insert into service_calls (kind) select 'send' from generate_series(1, 81)`);
    const calls = await control.count(BALANCE_CALL);
    expect(await getBalanceView()).toEqual(known);
    expect(await control.count(BALANCE_CALL)).toBe(calls);
  });

  it("spends a call made through the API's client from the api class, and a reader who finds it cached spends nothing", async () => {
    const db = await getDb();
    const view = await getBalanceView({ service: getApiService() });
    expect(view.currency).toBe("NGN");
    expect(await budgetSpent(db)).toMatchObject({ api: 1, read: 0 });
    expect(await getBalanceView()).toEqual(view);
    expect(await control.count(BALANCE_CALL)).toBe(1);
    expect(await budgetSpent(db)).toMatchObject({ api: 1, read: 0 });
    // Without a client, a miss is a person's read.
    await invalidateBalance();
    await getBalanceView();
    expect(await budgetSpent(db)).toMatchObject({ api: 1, read: 1 });
  });

  it("shares the value across instances: another process's read is served from the database", async () => {
    const first = await getBalanceView();
    // A second instance: its own process state, the same database.
    delete (globalThis as unknown as Record<symbol, unknown>)[Symbol.for("fundboard.balance-cache")];
    expect(await getBalanceView()).toEqual(first);
    expect(await control.count(BALANCE_CALL)).toBe(1);
  });

  it("retries a passing 500 and answers normally", async () => {
    await control.fault("/api/v1/business/balance", "500", 1);
    const view = await getBalanceView();
    expect(view.wallets).toHaveLength(4);
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("fails every concurrent reader with one call on an unreadable answer, and does not cache the failure", async () => {
    await control.fault("/api/v1/business/balance", "malformed");
    const results = await Promise.allSettled([getBalanceView(), getBalanceView(), getBalanceView()]);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      if (r.status === "rejected") {
        expect(r.reason).toBeInstanceOf(ServiceError);
        expect((r.reason as ServiceError).kind).toBe("bad_response");
      }
    }
    expect(await control.count(BALANCE_CALL)).toBe(1);

    await control.clearFaults();
    const view = await getBalanceView();
    expect(view.wallets).toHaveLength(4);
    expect(await control.count(BALANCE_CALL)).toBe(2);
  });

  it("reports a rejected key as unauthorized", async () => {
    const realKey = process.env.SERVICE_API_KEY;
    process.env.SERVICE_API_KEY = "some-other-environments-key";
    clearHolders();
    try {
      const error = await getBalanceView().then(
        () => new Error("expected the balance read to fail"),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).kind).toBe("unauthorized");
      expect((error as ServiceError).userMessage).toContain("SERVICE_API_KEY");
      // Not retried: a wrong key does not get better.
      expect(await control.count(BALANCE_CALL)).toBe(1);
    } finally {
      process.env.SERVICE_API_KEY = realKey;
      clearHolders();
    }
  });
});

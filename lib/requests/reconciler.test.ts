import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { fundRequests, type FundRequestRow } from "@/lib/db/schema";
import { subscribe, type LiveEvent } from "@/lib/live/bus";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { FETCH_CALL, FETCH_PATH, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { waitFor } from "@/tests/support/wait-for";

import { createFundRequest } from "./create";
import type { RequestDeps } from "./deps";
import { createReconciler, type Reconciler, type ReconcilerOptions } from "./reconciler";
import { applyFetched } from "./refresh";
import { duePending, findRequestByServiceId } from "./repo";
import { newRequestSchema } from "@/lib/client/requests/schemas";
import { ServiceError } from "@/lib/service/errors";
import { settleLive } from "@/tests/support/live";

// The reconciler against the sandbox and a real database: what it refreshes, how fast, and how it
// behaves when the service fails. Each test starts from an empty fund_requests table, because the
// reconciler looks at every pending row.

let sb: Sandbox;
let control: SandboxControl;

beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

describe.each(dbTargets())("reconciler on $name", (target) => {
  const database = useTestDatabase(target, { live: true });
  /** Like the app's background client: no retries inside a call, the reconciler paces itself. */
  let deps: RequestDeps;
  let operator: { id: string; name: string };

  beforeAll(async () => {
    deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
    operator = await insertStaff(database.db, "Ola Operator");
  });
  beforeEach(async () => {
    await database.db.delete(fundRequests);
    await control.reset();
  });

  /** Runs `body` while passes run every `tickMs` (as the reconcile job chains them), and always stops them. */
  async function withReconciler<T>(options: Partial<ReconcilerOptions> & { tickMs: number }, body: (r: Reconciler) => Promise<T>): Promise<T> {
    const { tickMs, ...rest } = options;
    const reconciler = createReconciler(deps, rest);
    let last: Promise<number> = Promise.resolve(0);
    // A pass that throws is a failure of the test, not something to hide: the first error is kept and thrown.
    let failure: unknown = null;
    const timer = setInterval(() => {
      last = reconciler.runOnce().catch((error: unknown) => {
        failure ??= error;
        return 0;
      });
    }, tickMs);
    try {
      const result = await body(reconciler);
      if (failure) throw failure;
      return result;
    } finally {
      clearInterval(timer);
      await last;
    }
  }

  async function sendPending(tag: string): Promise<string> {
    const outcome = await createFundRequest(
      deps,
      newRequestSchema.parse({ tag, amount: "75.25", description: "Reconciler test", idempotencyKey: newKey("rec") }),
      operator,
    );
    if (outcome.kind !== "created" || !outcome.request.requestId) throw new Error(`create failed: ${outcome.kind}`);
    return outcome.request.requestId;
  }

  async function row(requestId: string): Promise<FundRequestRow> {
    const found = await findRequestByServiceId(database.db, requestId);
    if (!found) throw new Error(`no row for ${requestId}`);
    return found;
  }

  async function insertRow(values: Partial<typeof fundRequests.$inferInsert> & { status: FundRequestRow["status"] }): Promise<FundRequestRow> {
    const [inserted] = await database.db
      .insert(fundRequests)
      .values({ reference: `fb_${newKey("ins")}`, tag: "someone", amount: "10.00", description: "inserted", ...values })
      .returning();
    if (!inserted) throw new Error("insert returned nothing");
    return inserted;
  }

  it("keeps one pace across instances: a pass that takes up another's pace spends only what is left of it", async () => {
    for (let i = 0; i < 6; i++) await sendPending(`pace.shared${i}`);
    await control.resetStats();
    // Three calls at once at most, refilled at 6 a minute: the first pass spends the three.
    const options = { budgetPerMinute: 6, concurrency: 3 };
    const a = createReconciler(deps, options);
    expect(await a.runOnce()).toBe(3);
    // Another instance's pass, given the pace A left: nothing is left to spend (one token comes back every 10 s).
    const b = createReconciler(deps, options);
    b.resume(a.pace());
    expect(await b.runOnce()).toBe(0);
    // Without the pace it would have spent three more: what the job's chain carries is what keeps them apart.
    const c = createReconciler(deps, options);
    expect(await c.runOnce()).toBe(3);
    expect(await control.count(FETCH_CALL)).toBe(6);
  });

  it("brings accept.auto and decline.auto requests to their final state and tells the browsers", async () => {
    const accepted = await sendPending("accept.auto");
    const declined = await sendPending("decline.auto");
    await control.resetStats();
    const events: LiveEvent[] = [];
    const unsubscribe = subscribe((e) => events.push(e));
    try {
      const stats = await withReconciler({ tickMs: 50, budgetPerMinute: 600, concurrency: 3 }, async (r) => {
        await waitFor(
          "both requests final",
          async () => ((await row(accepted)).status === "accepted" && (await row(declined)).status === "declined" ? true : undefined),
          6000,
        );
        return r.stats;
      });
      // Read after stop(), which waits for the pass in progress to finish its bookkeeping.
      expect(stats.applied).toBeGreaterThanOrEqual(2);
      expect(stats.backoffs).toBe(0);
      await settleLive(database.db);
    } finally {
      unsubscribe();
    }
    expect((await row(accepted)).serviceUpdatedAt).not.toBeNull();
    const finals = events.filter((e) => e.type === "request.updated" && (e.status === "accepted" || e.status === "declined"));
    expect(finals.map((e) => (e.type === "request.updated" ? `${e.requestId}:${e.status}` : "")).sort()).toEqual(
      [`${accepted}:accepted`, `${declined}:declined`].sort(),
    );
    // One or two checks each: right away, then once more after the sandbox decided.
    expect(await control.count(FETCH_CALL)).toBeLessThanOrEqual(4);
  });

  it("refreshes only pending rows with a service id, and never moves a final row back", async () => {
    const pendingId = await sendPending(newTag("rec.pending"));
    // Final locally while the service still says pending (say, a webhook arrived before the service's record caught up).
    const stillPendingA = await control.createDirect({ amount: 10, tag: newTag("rec.a"), description: "a" });
    const stillPendingB = await control.createDirect({ amount: 10, tag: newTag("rec.b"), description: "b" });
    const others = [
      await insertRow({ status: "accepted", requestId: stillPendingA }),
      await insertRow({ status: "declined", requestId: stillPendingB }),
      await insertRow({ status: "sending" }),
      await insertRow({ status: "failed", error: "The payment service refused." }),
      await insertRow({ status: "pending" }),
    ];
    await control.resetStats();

    await withReconciler({ tickMs: 60_000, budgetPerMinute: 600, concurrency: 3 }, async (r) => {
      expect(await r.runOnce()).toBe(1);
      expect(r.stats.calls).toBe(1);
    });
    expect(await control.count(FETCH_CALL)).toBe(1);
    expect((await row(pendingId)).lastCheckedAt).not.toBeNull();
    for (const before of others) {
      const [after] = await database.db.select().from(fundRequests).where(eq(fundRequests.id, before.id));
      expect(after?.status).toBe(before.status);
      expect(after?.lastCheckedAt).toBeNull();
    }
  });

  it("never moves a row back when a stale pending answer lands after the acceptance was applied", async () => {
    const statuses: string[] = [];
    let watched: string | null = null;
    const unsubscribe = subscribe((e) => {
      if (e.type === "request.updated" && e.requestId !== null && e.requestId === watched) statuses.push(e.status);
    });
    try {
      const requestId = await sendPending(newTag("rec.race"));
      watched = requestId;
      // The reconciler's fetch answers "pending"; before it applies that, the user accepts and the
      // acceptance is applied (as a webhook or another refresh would). Then the stale answer lands.
      const racing: RequestDeps = {
        ...deps,
        service: {
          ...deps.service,
          async getFundRequest(id) {
            const stale = await deps.service.getFundRequest(id);
            await control.accept(id);
            await applyFetched(deps, await deps.service.getFundRequest(id));
            return stale;
          },
        },
      };
      const reconciler = createReconciler(racing, { budgetPerMinute: 600, concurrency: 1 });
      expect(await reconciler.runOnce()).toBe(1);
      expect(reconciler.stats.applied).toBe(1);
      expect((await row(requestId)).status).toBe("accepted");
      await settleLive(database.db);
      statuses.push("marker");
      // The send's pending event may come before (or before the watch began); after the acceptance, nothing but the marker.
      expect(statuses.slice(statuses.indexOf("accepted"))).toEqual(["accepted", "marker"]);
    } finally {
      unsubscribe();
    }
  });

  it("checks the least recently checked first and leaves recently checked rows alone", async () => {
    const now = Date.now();
    const recent = await insertRow({
      status: "pending",
      requestId: await control.createDirect({ amount: 1, tag: newTag("rec.recent"), description: "r" }),
      // Ten minutes old (the 15 s tier), checked a second ago: not due for 14 s, whatever a slow machine takes here.
      createdAt: new Date(now - 10 * 60_000),
      lastCheckedAt: new Date(now - 1000),
    });
    const old = await insertRow({
      status: "pending",
      requestId: await control.createDirect({ amount: 1, tag: newTag("rec.old"), description: "o" }),
      lastCheckedAt: new Date(now - 5 * 60_000),
    });
    const never = await insertRow({ status: "pending", requestId: await control.createDirect({ amount: 1, tag: newTag("rec.never"), description: "n" }) });
    const checked = async (r: FundRequestRow) => {
      const [after] = await database.db.select().from(fundRequests).where(eq(fundRequests.id, r.id));
      return after?.lastCheckedAt?.getTime() ?? null;
    };

    await withReconciler({ tickMs: 60_000, budgetPerMinute: 600_000, concurrency: 1 }, async (r) => {
      expect(await r.runOnce()).toBe(1);
      expect(await checked(never)).not.toBeNull();
      expect(await checked(old)).toBe(old.lastCheckedAt?.getTime());

      expect(await waitFor("a token", async () => ((await r.runOnce()) === 1 ? true : undefined))).toBe(true);
      expect(await checked(old)).toBeGreaterThan(now);

      // Only the row checked a second ago is left, and it is not due yet.
      expect(await r.runOnce()).toBe(0);
      expect(await checked(recent)).toBe(recent.lastCheckedAt?.getTime());
    });
  });

  it("checks old requests rarely, so a backlog of them leaves the budget to young ones", async () => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const rows = {
      young: await insertRow({ status: "pending", requestId: "901", createdAt: at(1), lastCheckedAt: new Date(now - 3_000) }),
      hourOld: await insertRow({ status: "pending", requestId: "902", createdAt: at(60), lastCheckedAt: at(1) }),
      hourOldDue: await insertRow({ status: "pending", requestId: "903", createdAt: at(60), lastCheckedAt: at(3) }),
      dayOld: await insertRow({ status: "pending", requestId: "904", createdAt: at(24 * 60), lastCheckedAt: at(10) }),
      dayOldDue: await insertRow({ status: "pending", requestId: "905", createdAt: at(24 * 60), lastCheckedAt: at(16) }),
    };
    const due = await duePending(database.db, 10, new Date(now));
    // Least recently checked first among those due.
    expect(due.map((r) => r.id)).toEqual([rows.dayOldDue.id, rows.hourOldDue.id, rows.young.id]);
  });

  it("checks requests between 2 and 30 minutes old every 15 s, younger ones every 2 s, on the clock it is given", async () => {
    const now = Date.parse("2026-03-02T10:00:00Z");
    const ago = (ms: number) => new Date(now - ms);
    const rows = {
      youngDue: await insertRow({ status: "pending", requestId: "911", createdAt: ago(90_000), lastCheckedAt: ago(2_500) }),
      youngFresh: await insertRow({ status: "pending", requestId: "912", createdAt: ago(90_000), lastCheckedAt: ago(1_500) }),
      midDue: await insertRow({ status: "pending", requestId: "913", createdAt: ago(10 * 60_000), lastCheckedAt: ago(16_000) }),
      midFresh: await insertRow({ status: "pending", requestId: "914", createdAt: ago(10 * 60_000), lastCheckedAt: ago(14_000) }),
      midLate: await insertRow({ status: "pending", requestId: "915", createdAt: ago(29 * 60_000), lastCheckedAt: ago(17_000) }),
      pastTier: await insertRow({ status: "pending", requestId: "916", createdAt: ago(31 * 60_000), lastCheckedAt: ago(16_000) }),
    };
    const ids = async (at: number) => (await duePending(database.db, 10, new Date(at))).map((r) => r.id);
    expect(await ids(now)).toEqual([rows.midLate.id, rows.midDue.id, rows.youngDue.id]);
    // Two seconds on, the 14 s one is due too (and the young fresh one), but not the one past 30 min.
    expect(await ids(now + 2_000)).toEqual([rows.midLate.id, rows.midDue.id, rows.midFresh.id, rows.youngDue.id, rows.youngFresh.id]);
  });

  it("stays within its budget: with 60 a minute and concurrency 3, the fifth call comes no sooner than ~2 s", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push(await sendPending(newTag(`rec.budget${i}`)));
    await control.resetStats();

    const started = Date.now();
    await withReconciler({ tickMs: 20, budgetPerMinute: 60, concurrency: 3 }, async (r) => {
      // Three at once (the bucket's capacity), then one a second.
      // Bounds count calls against the time that really passed, so a slow machine cannot break them.
      const capacity = 3;
      const allowedSoFar = () => capacity + Math.floor((Date.now() - started) / 1000);
      await waitFor("the first three calls", () => (r.stats.calls >= 3 ? true : undefined), 2000);
      expect(r.stats.calls).toBeLessThanOrEqual(allowedSoFar());
      await waitFor("two more calls", () => (r.stats.calls >= 5 ? true : undefined), 5000);
      // The fifth call needs two refilled tokens: no sooner than ~2 s (a lower bound a busy machine only helps).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1800);
      expect(r.stats.calls).toBeLessThanOrEqual(allowedSoFar());
      // The sandbox saw exactly those calls (the last may still be on its way).
      const calls = r.stats.calls;
      await waitFor("the sandbox to count every call", async () => ((await control.count(FETCH_CALL)) >= calls ? true : undefined), 2000);
      expect(await control.count(FETCH_CALL)).toBe(calls);
    });
  });

  it.each([
    { mode: "429" as const, kind: "rate_limited" },
    { mode: "500" as const, kind: "server_error" },
    { mode: "timeout" as const, kind: "timeout" },
  ])("backs off on a $mode answer: no calls during the pause, growing pauses, and it recovers", async ({ mode, kind }) => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await sendPending(newTag(`rec.${mode}.${i}`)));
    await control.resetStats();
    await control.fault(FETCH_PATH, mode);
    const log: string[] = [];

    // Capacity 1 and a generous budget: without the pause, the next never-checked row would be fetched on the next tick.
    // Pauses of 2 s then 3 s: every check below has a second or more of margin on a busy 2-core machine.
    const stats = await withReconciler({ tickMs: 20, budgetPerMinute: 6000, concurrency: 1, maxBackoffMs: 3000, log: (l) => log.push(l) }, async (r) => {
      await waitFor("a backoff", () => (r.stats.backoffs > 0 ? true : undefined), 3000);
      const firstPause = r.stats.pausedUntil;
      expect(firstPause).toBeGreaterThan(Date.now());
      expect(log.join("\n")).toContain(kind);
      const callsAtPause = await control.count(FETCH_CALL);
      expect(callsAtPause).toBe(1);

      // During the pause neither the ticks nor a manual pass call the service.
      expect(await r.runOnce()).toBe(0);
      // Well inside the pause: the count below is an HTTP call, and a loaded machine may be slow to make it.
      await waitFor("the pause to be half over", () => (Date.now() >= firstPause - 1000 ? true : undefined), 3000);
      expect(await control.count(FETCH_CALL)).toBe(callsAtPause);
      expect(r.stats.backoffs).toBe(1);

      // Still failing after the pause: one more call, another pause.
      await waitFor("a second backoff", () => (r.stats.backoffs >= 2 ? true : undefined), 6000);
      expect(r.stats.pausedUntil).toBeGreaterThan(firstPause);
      expect(await control.count(FETCH_CALL)).toBe(2);

      // The service recovers and a request was accepted meanwhile: refreshes resume and apply it.
      await control.clearFaults();
      await control.accept(ids[3] ?? "");
      await waitFor("the accepted request applied", async () => ((await row(ids[3] ?? "")).status === "accepted" ? true : undefined), 8000);
      return r.stats;
    });
    expect(stats.applied).toBeGreaterThanOrEqual(1);
    // Nothing was recorded wrongly while it failed.
    for (const id of ids.slice(0, 3)) expect((await row(id)).status).toBe("pending");
  });

  it("in a storm probes with one call per pause instead of a full burst", async () => {
    for (let i = 0; i < 4; i++) await sendPending(newTag(`rec.probe.${i}`));
    await control.resetStats();
    await control.fault(FETCH_PATH, "500");
    // Pauses long enough that the burst's three failures land inside the first one even on a loaded machine.
    const stats = await withReconciler({ tickMs: 20, budgetPerMinute: 6000, concurrency: 3, maxBackoffMs: 500 }, async (r) => {
      await waitFor("four backoffs", () => (r.stats.backoffs >= 4 ? true : undefined), 5000);
      return r.stats;
    });
    // The first pass sent its burst of three; every later pass was a single probe that failed and paused again.
    expect(stats.backoffs).toBeGreaterThanOrEqual(4);
    expect(stats.calls).toBe(stats.backoffs + 2);
    expect(await control.count(FETCH_CALL)).toBe(stats.calls);
  });

  it("does not pause for an answer it cannot read, and moves on to other rows", async () => {
    const first = await sendPending(newTag("rec.bad1"));
    const second = await sendPending(newTag("rec.bad2"));
    await control.resetStats();
    await control.fault(FETCH_PATH, "malformed", 1);

    await withReconciler({ tickMs: 60_000, budgetPerMinute: 600_000, concurrency: 1 }, async (r) => {
      expect(await r.runOnce()).toBe(1);
      expect(r.stats.backoffs).toBe(0);
      expect(r.stats.pausedUntil).toBe(0);
      expect(await waitFor("a token", async () => ((await r.runOnce()) === 1 ? true : undefined))).toBe(true);
    });
    expect(await control.count(FETCH_CALL)).toBe(2);
    expect((await row(first)).lastCheckedAt).not.toBeNull();
    expect((await row(second)).lastCheckedAt).not.toBeNull();
    expect((await row(first)).status).toBe("pending");
  });

  it("leaves a check the shared budget refused as still owed: the row stays unchecked and the pause is the budget's, not a back-off", async () => {
    const requestId = await sendPending(newTag("rec.budget"));
    await control.resetStats();
    let refusals = 0;
    const refused = createReconciler(
      {
        ...deps,
        service: requestDeps(database.db, sb, {
          service: {
            getRetries: 0,
            beforeApiCall: async (operation) => {
              refusals += 1;
              throw new ServiceError({ kind: "rate_limited", operation, retryAfterMs: 3_000, budgetRefused: true });
            },
          },
        }).service,
      },
      { budgetPerMinute: 600_000, concurrency: 1 },
    );
    const before = Date.now();
    expect(await refused.runOnce()).toBe(1);
    expect(refusals).toBe(1);
    expect(await control.count(FETCH_CALL)).toBe(0);
    expect((await row(requestId)).lastCheckedAt).toBeNull();
    expect(refused.stats.backoffs).toBe(0);
    expect(refused.stats.pausedUntil).toBeGreaterThanOrEqual(before + 3_000);
    // It is still the first due: the next check (once the budget has room) takes it.
    expect((await duePending(database.db, 1, new Date())).map((r) => r.requestId)).toEqual([requestId]);
  });
});

import { performance } from "node:perf_hooks";

import { freePortRun } from "@/tests/support/ports";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { BALANCE_TTL_MS } from "@/lib/balance/cache";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTempPostgres } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { BALANCE_CALL, CREATE_CALL, sandboxControl } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { signIn } from "@/tests/support/sign-in";
import { eventWith, SseClient } from "@/tests/support/sse-client";
import { waitFor } from "@/tests/support/wait-for";

import { requireBuild, startInstance, type Instance } from "./instances";

const KEY = "sk_scaleout_test_key_0123456789";
const SECRET = "scale-out-shared-auth-secret-0123456789abcdef";
const SANDBOX_PORT = await freePortRun(3);
const base = process.env.TEST_DATABASE_URL;

if (process.env.CI && !base) throw new Error("CI must set TEST_DATABASE_URL: the scale-out tests run on Postgres.");

describe.runIf(base)("two instances on one Postgres", () => {
  let sandbox: Sandbox;
  let db: { url: string; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let client: pg.Client;
  const env = () => ({ DATABASE_URL: db.url, SANDBOX_PORT: String(SANDBOX_PORT), SERVICE_API_KEY: KEY, AUTH_SECRET: SECRET });

  /** Reconciler passes running right now, across every instance (pg-boss's queue in the shared database). */
  const activePasses = async () =>
    (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'reconcile' AND state = 'active'")).rows[0]?.n ?? 0;
  /** Who worked each completed pass (since `after`, when given): the `workedBy` each records as its output. */
  const passWorkers = async (after?: Date) =>
    (
      await client.query<{ worked_by: string | null }>(
        "SELECT output->>'workedBy' AS worked_by FROM pgboss.job WHERE name = 'reconcile' AND state = 'completed' AND ($1::timestamptz IS NULL OR completed_on > $1)",
        [after ?? null],
      )
    ).rows.flatMap((r) => (r.worked_by ? [r.worked_by] : []));
  const queueReady = async () =>
    (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'pgboss' AND tablename = 'queue'")).rows[0]?.n === 1 &&
    ((await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.queue WHERE name = 'reconcile'")).rows[0]?.n ?? 0) === 1;

  beforeAll(async () => {
    requireBuild();
    db = await createTempPostgres(base ?? "");
    sandbox = await startSandbox({ port: SANDBOX_PORT, apiKey: KEY, autoDelayMs: 200, log: () => {} });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    a = await startInstance(await freePortRun(), env());
    // A starts first and makes the job engine's queues before B exists.
    await waitFor("A to make the job queues", async () => ((await queueReady()) ? true : undefined), 20_000, 100);
    b = await startInstance(await freePortRun(), env());
  }, 180_000);

  afterAll(async () => {
    await a?.stop("SIGKILL");
    await b?.stop("SIGKILL");
    await client?.end();
    await sandbox?.close();
    await db?.drop();
  });

  const signed = (body: string) => signedHeaders(body, KEY);

  it("an SSE client on B hears the payment whose webhook reached A (through Postgres: B never saw it)", async () => {
    const live = await SseClient.open(await signIn(b.url, "admin@fundboard.test", "fundboard-demo"));
    const p = payload();
    const sent = performance.now();
    const res = await fetch(`${a.url}/api/webhooks/peer-transfer`, { method: "POST", body: JSON.stringify(p), headers: signed(JSON.stringify(p)) });
    expect(res.status).toBe(200);
    // B never saw the delivery: the event can reach its stream only through Postgres (LISTEN/NOTIFY). Waited on
    // as an event; the bound only turns a lost event into a failure, not a hang. It is typically a few tens of ms,
    // but a busy 2-core machine can stall either server for seconds, so the bound is generous.
    const event = await live.waitFor(eventWith("payment.recorded", { uuid: p.uuid }), 30_000, sent);
    expect(event, "payment.recorded on B").not.toBeNull();
    await live.close();
  });

  it("keeps the webhook exactly-once across instances: the same delivery to both at once is one payment", async () => {
    const p = payload();
    const body = JSON.stringify(p);
    const answers = await Promise.all(
      [a, b, a, b].map((i) => fetch(`${i.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signed(body) }).then((r) => r.status)),
    );
    expect(answers).toEqual([200, 200, 200, 200]);
    const rows = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM payments WHERE uuid = $1", [p.uuid]);
    expect(rows.rows[0]?.n).toBe(1);
    const logs = await client.query<{ outcome: string; n: number }>(
      "SELECT outcome, count(*)::int AS n FROM webhook_deliveries WHERE uuid = $1 GROUP BY outcome ORDER BY outcome",
      [p.uuid],
    );
    expect(logs.rows).toEqual([
      { outcome: "duplicate", n: 3 },
      { outcome: "recorded", n: 1 },
    ]);
  });

  it("shares one balance value across instances: many concurrent readers on both, one service call per TTL", async () => {
    const cookies = [
      (await signIn(a.url, "admin@fundboard.test", "fundboard-demo")).cookie(),
      (await signIn(b.url, "admin@fundboard.test", "fundboard-demo")).cookie(),
    ];
    // No read in flight (its call could land on either side of resetStats), then the shared value made stale in
    // the shared table itself, rather than slept past its TTL: the burst below is then a miss on both instances.
    await waitFor(
      "no balance read in flight",
      async () => ((await client.query("SELECT 1 FROM balance_cache WHERE refreshing_until > now()")).rowCount === 0 ? true : undefined),
      20_000,
      100,
    );
    await client.query("UPDATE balance_cache SET fetched_at = now() - interval '1 hour'");
    await sandboxControl(sandbox).resetStats();
    const started = performance.now();
    const burst = [a, b].flatMap((instance, i) =>
      Array.from({ length: 25 }, () => fetch(`${instance.url}/api/balance`, { headers: { cookie: cookies[i] ?? "" } })),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    const tookMs = performance.now() - started;
    expect(statuses.every((s) => s === 200)).toBe(true);
    // One call for the 50 readers while the value they share is fresh. On a busy 2-core machine the burst itself
    // can outlast the TTL, and a reader arriving after that rightly reads again: one more call per TTL passed.
    const calls = await sandboxControl(sandbox).count(BALANCE_CALL);
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls, `${calls} balance calls over a ${Math.round(tookMs)} ms burst`).toBeLessThanOrEqual(1 + Math.floor(tookMs / BALANCE_TTL_MS));
  });

  it("holds an API key to its limit across both instances, and runs one Idempotency-Key once whichever instance each copy reaches", async () => {
    const admin = await signIn(a.url, "admin@fundboard.test", "fundboard-demo");
    const made = await admin.json<{ data: { key: string } }>("/api/api-keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "two instances", scopes: "everything", readsPerMinute: 10, writesPerMinute: 60 }),
    });
    expect(made.status).toBe(201);
    const auth = { authorization: `Bearer ${made.body.data.key}` };
    // The minute may turn during the burst: each window then holds at most the limit.
    const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${(i % 2 === 0 ? a : b).url}/api/v1/payments`, { headers: auth })));
    const admitted = reads.filter((r) => r.status === 200).length;
    expect(reads.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(20);
    if (reads.some((r) => r.status === 429)) expect(reads.find((r) => r.status === 429)?.headers.get("retry-after")).toMatch(/^\d+$/);

    await sandboxControl(sandbox).resetStats();
    const body = JSON.stringify({ tag: `twice.${Date.now()}`, amount: "700.00", description: "One of two copies" });
    const headers = { ...auth, "content-type": "application/json", "idempotency-key": `both-${Date.now()}` };
    const posts = await Promise.all([a, b].map((i) => fetch(`${i.url}/api/v1/requests`, { method: "POST", headers, body })));
    const statuses = posts.map((r) => r.status).sort();
    // One ran; the other found it running (409) or, if it came after the answer, replayed it.
    expect(["201,409", "201,201"]).toContain(statuses.join(","));
    expect(await sandboxControl(sandbox).count(CREATE_CALL)).toBe(1);
  });

  it("runs one reconciler pass at a time across instances, both taking passes; kill one and the other carries on", async () => {
    // Both instances work the chain: each finished pass records the instance that ran it (lib/jobs/engine.ts
    // WORKED_BY). Until both have, no two passes run at once (sampled as the chain goes on).
    const seen = new Set<string>();
    let mostAtOnce = 0;
    await waitFor(
      "passes worked by both instances",
      async () => {
        mostAtOnce = Math.max(mostAtOnce, await activePasses());
        for (const workedBy of await passWorkers()) seen.add(workedBy);
        return seen.size >= 2 ? true : undefined;
      },
      // Each pass queues the next a second ahead and either instance may fetch it: both have, typically, within
      // seconds. The bound is generous for a busy 2-core machine; it only turns "never" into a failure.
      90_000,
      100,
    );
    expect(mostAtOnce).toBeLessThanOrEqual(1);
    // Exactly the two instances, each a distinct process.
    expect(seen.size).toBe(2);
    const cookie = (await signIn(b.url, "admin@fundboard.test", "fundboard-demo")).cookie();
    const create = async (tag: string) => {
      const res = await fetch(`${b.url}/api/requests`, {
        method: "POST",
        headers: { cookie, origin: b.url, "content-type": "application/json" },
        body: JSON.stringify({ tag, amount: "10", description: "Scale-out", idempotencyKey: `so${Date.now()}${tag.replace(/\W/g, "")}` }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { requestId: string } }).data.requestId;
    };
    const statusOf = async (requestId: string) => {
      const list = (await (await fetch(`${b.url}/api/requests?status=declined`, { headers: { cookie } })).json()) as {
        data: { items: { requestId: string }[] };
      };
      return list.data.items.some((r) => r.requestId === requestId) ? "declined" : undefined;
    };

    const first = await create(`scale.one${Date.now()}`);
    await sandboxControl(sandbox).decline(first);
    await waitFor("a pass to reconcile the decline", () => statusOf(first), 15_000, 100);

    await a.stop("SIGKILL");
    const second = await create(`scale.two${Date.now()}`);
    await sandboxControl(sandbox).decline(second);
    const started = Date.now();
    await waitFor("B to carry on and reconcile", () => statusOf(second), 60_000, 100);
    // A pass A held when it died expires after 15 s (maintenance every 10 s); B's next pass then runs. 40 s is that
    // 25 s at most plus room for a busy machine: only a chain left broken until the per-minute clock fails it.
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(await activePasses()).toBeLessThanOrEqual(1);
    // The passes since A died are B's: one of the two instances seen above, and never A again.
    const killedAt = await client.query<{ at: Date }>("SELECT now() AS at");
    await waitFor("a pass completed after the kill", async () => ((await passWorkers(killedAt.rows[0]?.at)).length > 0 ? true : undefined), 30_000, 100);
    const after = new Set(await passWorkers(killedAt.rows[0]?.at));
    expect(after.size).toBe(1);
    expect(seen.has([...after][0] ?? "")).toBe(true);
  });
});

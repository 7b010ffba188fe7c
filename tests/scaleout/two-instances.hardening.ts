import { performance } from "node:perf_hooks";

import { freePortRun } from "@/tests/support/ports";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTempPostgres } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { BALANCE_CALL, sandboxControl } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { signIn } from "@/tests/support/sign-in";
import { eventWith, SseClient } from "@/tests/support/sse-client";
import { sleep, waitFor } from "@/tests/support/wait-for";

import { requireBuild, startInstance, type Instance } from "./instances";

const KEY = "sk_scaleout_test_key_0123456789";
const SECRET = "scale-out-shared-auth-secret-0123456789abcdef";
const SANDBOX_PORT = await freePortRun(2);
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

  it("an SSE client on B hears, within two seconds, the payment whose webhook reached A", async () => {
    const live = await SseClient.open(await signIn(b.url, "admin@fundboard.test", "fundboard-demo"));
    const p = payload();
    const sent = performance.now();
    const res = await fetch(`${a.url}/api/webhooks/peer-transfer`, { method: "POST", body: JSON.stringify(p), headers: signed(JSON.stringify(p)) });
    expect(res.status).toBe(200);
    const event = await live.waitFor(eventWith("payment.recorded", { uuid: p.uuid }), 5_000, sent);
    expect(event, "payment.recorded on B within 5 s").not.toBeNull();
    // Typically a few tens of ms (LISTEN/NOTIFY); two seconds leaves room for a busy 2-core machine.
    expect((event?.at ?? Infinity) - sent).toBeLessThan(2_000);
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

  it("shares one balance value across instances: many concurrent readers on both, one service call", async () => {
    const cookies = [
      (await signIn(a.url, "admin@fundboard.test", "fundboard-demo")).cookie(),
      (await signIn(b.url, "admin@fundboard.test", "fundboard-demo")).cookie(),
    ];
    // Let any cached value expire, then a burst on both.
    await sleep(5_200);
    await sandboxControl(sandbox).resetStats();
    const burst = [a, b].flatMap((instance, i) =>
      Array.from({ length: 25 }, () => fetch(`${instance.url}/api/balance`, { headers: { cookie: cookies[i] ?? "" } })),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await sandboxControl(sandbox).count(BALANCE_CALL)).toBe(1);
  });

  it("runs one reconciler pass at a time across instances; kill one and the other carries on", async () => {
    // Sampled for a few seconds: never two passes at once, though both instances work the queue.
    for (let i = 0; i < 30; i++) {
      expect(await activePasses()).toBeLessThanOrEqual(1);
      await sleep(100);
    }
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
    // A pass A held when it died expires after 15 s (maintenance every 10 s); B's next pass then runs.
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(await activePasses()).toBeLessThanOrEqual(1);
  });
});

// Issue 38 (item 5, "Workers apart"): web and jobs scale apart on one Postgres. Two web-only instances (WORKERS=0)
// queue jobs and work none, so a started campaign waits until a jobs-only worker (`npm run worker`) starts and sends
// it; the worker stops gracefully on SIGTERM (the row in flight finished, exit 0) and the next one sends the rest.
// docs/architecture.md, "Jobs"; docs/decisions.md, "Workers apart (issue 38)".
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import type { Envelope } from "@/tests/hardening/support";
import { createTempPostgres } from "@/tests/support/db-targets";
import { freePortRun } from "@/tests/support/ports";
import { CREATE_PATH, sandboxControl } from "@/tests/support/sandbox-control";
import { signIn, type Session } from "@/tests/support/sign-in";
import { eventWith, SseClient } from "@/tests/support/sse-client";
import { sleep, waitFor } from "@/tests/support/wait-for";

import { requireBuild, startInstance, startWorker, type Instance, type Worker } from "./instances";

const KEY = "sk_workers_apart_test_key_0123456789";
const SECRET = "workers-apart-shared-auth-secret-0123456789abcdef";
const DEMO = { email: "admin@fundboard.test", password: "fundboard-demo" } as const;
const SANDBOX_PORT = await freePortRun(3);
const base = process.env.TEST_DATABASE_URL;

if (process.env.CI && !base) throw new Error("CI must set TEST_DATABASE_URL: the scale-out tests run on Postgres.");

interface CampaignCounts {
  status: string;
  counts: { total: number; queued: number; sent: number; accepted: number; failed: number; unknown: number };
}

describe.runIf(base)("two web-only instances and one worker on one Postgres", () => {
  let sandbox: Sandbox;
  let db: { url: string; drop(): Promise<void> };
  let client: pg.Client;
  let a: Instance;
  let b: Instance;
  const workers: Worker[] = [];
  // One configuration for every process, as a deployment would share it; WORKERS=0 means nothing to the worker.
  const env = () => ({
    DATABASE_URL: db.url,
    SANDBOX_PORT: String(SANDBOX_PORT),
    SERVICE_API_KEY: KEY,
    AUTH_SECRET: SECRET,
    WORKERS: "0",
    // A generous budget, so a campaign's rows go out at the sandbox's pace rather than the budget's.
    SERVICE_RATE_LIMIT_PER_MIN: "3000",
  });
  const worker = async () => {
    const w = await startWorker({ ...env(), APP_URL: a.url });
    workers.push(w);
    return w;
  };

  /** pg-boss's jobs in the shared database, by state. */
  const jobStates = async (queue?: string) =>
    Object.fromEntries(
      (
        await client.query<{ state: string; n: number }>(
          "SELECT state, count(*)::int AS n FROM pgboss.job WHERE $1::text IS NULL OR name = $1 GROUP BY state",
          [queue ?? null],
        )
      ).rows.map((r) => [r.state, r.n]),
    ) as Record<string, number>;
  /** Who worked each completed job that records it (a batch of one: lib/jobs/engine.ts WORKED_BY). */
  const workedBy = async () =>
    (
      await client.query<{ by: string }>("SELECT DISTINCT output->>'workedBy' AS by FROM pgboss.job WHERE state = 'completed' AND output ? 'workedBy'")
    ).rows.map((r) => r.by);
  const schedules = async () => (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.schedule")).rows[0]?.n ?? 0;

  /** Uploads a campaign of `rows` people `<prefix>.<n>` and starts it; answers a reader of its counts. */
  async function startCampaign(admin: Session, prefix: string, rows: number): Promise<() => Promise<CampaignCounts>> {
    const csv = `tag,amount,description\n${Array.from({ length: rows }, (_, i) => `${prefix}.${i},${100 + i},Dues ${i}`).join("\n")}\n`;
    const form = new FormData();
    form.set("name", `Apart ${prefix}`);
    form.set("file", new Blob([csv], { type: "text/csv" }), "dues.csv");
    const uploaded = await admin.json<Envelope<{ id: string }>>("/api/campaigns", { method: "POST", body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const id = uploaded.body.data.id;
    expect((await admin.json(`/api/campaigns/${id}/start`, { method: "POST" })).status).toBe(200);
    return async () => (await admin.json<Envelope<CampaignCounts>>(`/api/campaigns/${id}`)).body.data;
  }
  const heldBySandbox = async (prefix: string) =>
    (await sandboxControl(sandbox).requests()).filter((r) => r.requested_sent_to.tag.startsWith(`${prefix}.`)).map((r) => r.requested_sent_to.tag);

  beforeAll(async () => {
    requireBuild();
    db = await createTempPostgres(base ?? "");
    // Every create the tests slow down takes 1.5 s, so a call is in flight when the worker is told to stop.
    sandbox = await startSandbox({ port: SANDBOX_PORT, apiKey: KEY, webhookRetryDelaysMs: [], slowDelayMs: 1_500, log: () => {} });
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    a = await startInstance(await freePortRun(), env());
    // A makes the database, the demo admin and the job queues before B starts.
    await signIn(a.url, DEMO.email, DEMO.password);
    b = await startInstance(await freePortRun(), env());
  }, 180_000);

  afterAll(async () => {
    for (const w of workers) await w.stop("SIGKILL");
    await a?.stop("SIGKILL");
    await b?.stop("SIGKILL");
    await client?.end();
    await sandbox?.close();
    await db?.drop();
  });

  it("works no job on the web instances: a started campaign stays queued until the worker starts, which sends every row", async () => {
    for (const web of [a, b]) {
      expect(web.output()).toContain("[jobs] web only (WORKERS=0)");
      expect(web.output()).not.toContain("[jobs] working");
    }
    const admin = await signIn(b.url, DEMO.email, DEMO.password);
    const prefix = `apart${Date.now().toString(36)}`;
    const rows = 6;
    const counts = await startCampaign(admin, prefix, rows);

    // The web request queued the campaign's pass (enqueueing works without workers)…
    await waitFor("the campaign's pass queued", async () => ((await jobStates("campaign-send")).created ? true : undefined), 10_000, 100);
    // …and nobody takes it: a worker polls every second, so 6 s is several chances for one that should not exist.
    await sleep(6_000);
    expect(await jobStates()).toEqual({ created: 1 });
    expect(await schedules()).toBe(0);
    expect((await counts()).counts).toMatchObject({ total: rows, queued: rows, sent: 0 });
    expect(await heldBySandbox(prefix)).toEqual([]);

    const w = await worker();
    const done = await waitFor(
      "the campaign sent by the worker",
      async () => {
        const c = await counts();
        return c.status === "done" ? c : undefined;
      },
      60_000,
      200,
    );
    expect(done.counts).toMatchObject({ queued: 0, failed: 0, unknown: 0, sent: rows });
    const held = await heldBySandbox(prefix);
    expect(held).toHaveLength(rows);
    expect(new Set(held).size).toBe(rows);
    // The worker worked every job that records its worker, and keeps the clocks (one schedule per clocked queue).
    expect(await workedBy()).toEqual([w.workedBy]);
    expect(await schedules()).toBeGreaterThanOrEqual(5);
    for (const web of [a, b]) expect(web.output()).not.toContain("[jobs] working");
  });

  it("stops the worker gracefully on SIGTERM mid-campaign (the row in flight finished, exit 0); the next worker sends the rest once", async () => {
    const first = workers.at(-1) ?? (await worker());
    await sandboxControl(sandbox).fault(CREATE_PATH, "slow", 1_000);
    const admin = await signIn(a.url, DEMO.email, DEMO.password);
    const prefix = `stop${Date.now().toString(36)}`;
    const rows = 10;
    const counts = await startCampaign(admin, prefix, rows);
    await waitFor("two rows sent", async () => ((await counts()).counts.sent >= 2 ? true : undefined), 60_000, 100);

    first.signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([first.exit, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 30_000)))]);
    clearTimeout(timer);
    expect(exit, first.tail(20)).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain("[worker] stopped: jobs finished");
    // It finished the row in flight and took no new one: nothing failed, nothing of unknown outcome, rows still queued.
    const stopped = (await counts()).counts;
    expect(stopped).toMatchObject({ failed: 0, unknown: 0 });
    expect(stopped.queued).toBeGreaterThan(0);
    expect(stopped.sent + stopped.queued).toBe(rows);
    const states = await jobStates("campaign-send");
    expect(states.active ?? 0).toBe(0);
    expect(states.failed ?? 0).toBe(0);
    // With no worker the rest waits, whatever the web instances do.
    await sleep(3_000);
    expect((await counts()).counts.sent).toBe(stopped.sent);

    const next = await worker();
    // The campaign's per-minute clock carries the chain on (docs/architecture.md, "Jobs", Stopping): within a minute.
    const done = await waitFor(
      "the rest sent by the next worker",
      async () => {
        const c = await counts();
        return c.status === "done" ? c : undefined;
      },
      120_000,
      250,
    );
    expect(done.counts).toMatchObject({ queued: 0, failed: 0, unknown: 0, sent: rows });
    const held = await heldBySandbox(prefix);
    expect(held).toHaveLength(rows);
    expect(new Set(held).size).toBe(rows);
    expect((await workedBy()).sort()).toEqual([first.workedBy, next.workedBy].sort());
    await sandboxControl(sandbox).clearFaults();
  });

  it("tells a browser on the other web instance of a request accepted while only the worker works (issue 38)", async () => {
    // Any worker (the one the other tests left running, or one of its own when it runs alone).
    if (workers.length === 0) await worker();
    const stream = await SseClient.open(await signIn(b.url, DEMO.email, DEMO.password));
    const admin = await signIn(a.url, DEMO.email, DEMO.password);
    const body = JSON.stringify({
      tag: `live.${Date.now().toString(36)}`,
      amount: "150.00",
      description: "Dues",
      idempotencyKey: `live_${Date.now().toString(36)}`,
    });
    const created = await admin.json<Envelope<{ requestId: string }>>("/api/requests", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const requestId = created.body.data.requestId;
    const accepted = performance.now();
    await sandboxControl(sandbox).accept(requestId);
    // Neither web instance works jobs: the acceptance is applied in the worker's transaction, whose NOTIFY is the only
    // way it reaches B. Waited on as an event; the bound only turns a lost event into a failure.
    const event = await stream.waitFor(eventWith("request.updated", { requestId, status: "accepted" }), 60_000, accepted);
    expect(event, "request.updated (accepted) on B").not.toBeNull();
    await stream.close();
  });
});

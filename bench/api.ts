// Benchmark 17: the API for the business's own systems (issue 41, docs/architecture.md "The API"), on its own dashboard
// on a fresh embedded database. The same work through both doors, interleaved so both see the same server state:
//  (a) sending a fund request: POST /api/v1/requests (an API key, a fresh Idempotency-Key each) against the
//      dashboard's POST /api/requests (a signed-in admin's session);
//  (b) a page of payments (25) over the seeded payments: GET /api/v1/payments?pageSize=25 against GET /api/payments;
//  (c) the OpenAPI document, GET /api/v1/openapi.json, one at a time.
// Targets: v1's p95 within 1.2× of the dashboard's for (a) and (b); (c) p95 < 50 ms.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomUUID } from "node:crypto";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import type { ApiKeyCreated } from "@/lib/client/api-keys/schemas";
import { payload } from "@/tests/support/payloads";
import { deliverySignature } from "@/tests/support/sign-delivery";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { freshTag } from "./dashboard-api";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, type Session } from "./session";
import { round, summarize, type Summary } from "./stats";

/** SERVICE_RATE_LIMIT_PER_MIN of this dashboard: far above the sends, so the budget never refuses one. */
const BUDGET_PER_MIN = 100_000;
/** The bench key's own limits: the most the create schema takes (lib/client/api-keys/schemas.ts), above the load. */
const KEY_READS_PER_MIN = 10_000;
const KEY_WRITES_PER_MIN = 1_000;
const PAGE_SIZE = 25;

export interface ApiComparison {
  /** Each side's round trips (the whole answer read), successes only. */
  v1: Summary;
  dashboard: Summary;
  /** v1's p95 / the dashboard's. */
  p95Ratio: number;
  /** Answers other than the expected status, per side. */
  failed: { v1: number; dashboard: number };
}

export interface ApiBenchResult {
  concurrency: number;
  /** (a) fund requests sent through each door. */
  create: ApiComparison & { requests: number };
  /** (b) payments recorded before the reads (signed deliveries answered 200), and the reads of each side. */
  list: ApiComparison & { payments: number; reads: number };
  /** (c) the OpenAPI document, one GET at a time. */
  openapi: { latencyMs: Summary; bytes: number };
}

type Door = "v1" | "dashboard";

interface Job {
  door: Door;
  run(): Promise<{ status: number; text: string; ms: number }>;
  expect: number;
}

/** One answer read whole: its status, body and milliseconds. */
async function timed(send: () => Promise<Response>): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await send();
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - t0 };
}

/**
 * `pairs` pairs of jobs (one per door, the order swapping each pair) run `concurrency` at a time from one queue, so
 * both doors are in flight together and meet the same server state; each door's latencies and failures.
 */
async function interleaved(pairs: number, concurrency: number, make: (door: Door, i: number) => Job): Promise<ApiComparison & { firstFailure: string | null }> {
  const queue: Job[] = [];
  for (let i = 0; i < pairs; i++) {
    const order: Door[] = i % 2 === 0 ? ["v1", "dashboard"] : ["dashboard", "v1"];
    for (const door of order) queue.push(make(door, i));
  }
  const ms: Record<Door, number[]> = { v1: [], dashboard: [] };
  const failed: Record<Door, number> = { v1: 0, dashboard: 0 };
  let firstFailure: string | null = null;
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const job = queue[next++];
      if (!job) break;
      try {
        const { status, text, ms: took } = await job.run();
        if (status === job.expect) ms[job.door].push(took);
        else {
          failed[job.door] += 1;
          firstFailure ??= `${job.door}: HTTP ${status} ${text.slice(0, 200)}`;
        }
      } catch (error) {
        failed[job.door] += 1;
        firstFailure ??= `${job.door}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const v1 = summarize(ms.v1);
  const dashboard = summarize(ms.dashboard);
  return { v1, dashboard, p95Ratio: round(v1.p95 / dashboard.p95, 2), failed, firstFailure };
}

/**
 * `count` signed deliveries of fresh payments (as the service sends them; benchmarks 15 and 16 send them the same way),
 * `concurrency` at a time; one not answered 200 is sent again as it was (the intake records a repeat once), up to
 * `attempts` times. Answers how many were recorded.
 */
async function seedPayments(webhookUrl: string, apiKey: string, count: number, concurrency: number, attempts = 5): Promise<number> {
  let next = 0;
  let recorded = 0;
  let lastFailure = "";
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const body = JSON.stringify(payload({ uuid: randomUUID(), description: `Bench API payment ${i}` }));
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          const res = await fetch(webhookUrl, {
            method: "POST",
            headers: { "content-type": "application/json", "x-service-signature": deliverySignature(body, apiKey) },
            body,
          });
          const text = await res.text();
          if (res.status === 200) {
            recorded += 1;
            break;
          }
          lastFailure = `HTTP ${res.status} ${text.slice(0, 200)}`;
        } catch (error) {
          lastFailure = error instanceof Error ? error.message : String(error);
        }
        await sleep(250 * attempt);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (recorded < count) throw new Error(`payments: only ${recorded} of ${count} deliveries answered 200 (last: ${lastFailure})`);
  return recorded;
}

/** More than 1% of a side's calls failing makes its figures mean less: the measurement is not taken. */
function checkFailures(what: string, calls: number, r: { failed: { v1: number; dashboard: number }; firstFailure: string | null }): void {
  for (const door of ["v1", "dashboard"] as const)
    if (r.failed[door] > calls * 0.01) throw new Error(`${what}: ${r.failed[door]} of ${calls} ${door} calls failed (first: ${r.firstFailure ?? "?"})`);
}

export async function benchApi(ctx: BenchContext): Promise<ApiBenchResult> {
  const { requests, reads, concurrency, payments, seedConcurrency, warmups } = ctx.options.api;
  const port = await freePorts(...SERVER_PORTS);
  const dashboard = await startDashboard({
    root: ctx.options.root,
    distDir: ctx.distDir,
    port,
    sandboxPort: ctx.sandbox.port,
    apiKey: ctx.apiKey,
    dataDir: mkdtempSync(path.join(ctx.tempRoot, "api-")),
    env: { SERVICE_RATE_LIMIT_PER_MIN: String(BUDGET_PER_MIN) },
  });
  try {
    const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const made = await admin.json<ApiKeyCreated>("/api/api-keys", {
      method: "POST",
      body: JSON.stringify({ name: "Bench API", scopes: "everything", readsPerMinute: KEY_READS_PER_MIN, writesPerMinute: KEY_WRITES_PER_MIN }),
    });
    if (made.status !== 201 || !made.data?.key) throw new Error(`making the API key: HTTP ${made.status} ${made.message}`);
    const bearer = `Bearer ${made.data.key}`;
    const v1Get = (pathname: string) => fetch(`${dashboard.url}${pathname}`, { headers: { authorization: bearer } });
    const v1Post = (pathname: string, body: unknown) =>
      fetch(`${dashboard.url}${pathname}`, {
        method: "POST",
        headers: { authorization: bearer, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify(body),
      });
    const dashboardPost = (session: Session, pathname: string, body: unknown) =>
      session.fetch(pathname, { method: "POST", headers: { "content-type": "application/json", origin: dashboard.url }, body: JSON.stringify(body) });

    // (a) Each request to a tag nobody has used: the sandbox makes its consumer on the fly.
    const createJob = (door: Door, i: number): Job => {
      const body = { tag: freshTag(`api.${door === "v1" ? "v" : "d"}`), amount: "150.00", description: `Bench API request ${i}` };
      return {
        door,
        expect: 201,
        run: () =>
          timed(() => (door === "v1" ? v1Post("/api/v1/requests", body) : dashboardPost(admin, "/api/requests", { ...body, idempotencyKey: randomUUID() }))),
      };
    };
    const warmCreate = await interleaved(warmups, 1, createJob);
    checkFailures("requests (warm-up)", warmups, warmCreate);
    const create = await interleaved(requests, concurrency, createJob);
    checkFailures("requests", requests, create);
    ctx.log(`api: ${requests} requests each way, v1 p95 ${create.v1.p95} ms, dashboard p95 ${create.dashboard.p95} ms`);

    // (b) Payments as the service announces them (signed deliveries), then their verifications let finish, so the
    // follow-up jobs do not run during the reads.
    const seeded = await seedPayments(`${dashboard.url}/api/webhooks/peer-transfer`, ctx.apiKey, payments, seedConcurrency);
    const deadline = performance.now() + 60_000;
    for (;;) {
      const pending = await admin.json<{ total: number }>("/api/payments?verified=unverified");
      if (pending.status !== 200) throw new Error(`unverified payments: HTTP ${pending.status} ${pending.message}`);
      if (pending.data.total === 0) break;
      if (performance.now() > deadline) {
        ctx.log(`api: ${pending.data.total} payments still unverified after 60 s; reading anyway`);
        break;
      }
      await sleep(500);
    }
    const listJob = (door: Door): Job => ({
      door,
      expect: 200,
      run: () => timed(() => (door === "v1" ? v1Get(`/api/v1/payments?pageSize=${PAGE_SIZE}`) : admin.fetch("/api/payments"))),
    });
    const warmList = await interleaved(warmups, 1, listJob);
    checkFailures("payments (warm-up)", warmups, warmList);
    const list = await interleaved(reads, concurrency, listJob);
    checkFailures("payments", reads, list);
    ctx.log(`api: ${reads} payment pages each way, v1 p95 ${list.v1.p95} ms, dashboard p95 ${list.dashboard.p95} ms`);

    // (c) One warm-up, then one GET at a time.
    const warm = await timed(() => fetch(`${dashboard.url}/api/v1/openapi.json`));
    if (warm.status !== 200) throw new Error(`/api/v1/openapi.json: HTTP ${warm.status}`);
    const docMs: number[] = [];
    for (let i = 0; i < reads; i++) {
      const r = await timed(() => fetch(`${dashboard.url}/api/v1/openapi.json`));
      if (r.status !== 200) throw new Error(`/api/v1/openapi.json: HTTP ${r.status}`);
      docMs.push(r.ms);
    }

    const strip = ({ firstFailure: _f, ...c }: ApiComparison & { firstFailure: string | null }): ApiComparison => c;
    return {
      concurrency,
      create: { ...strip(create), requests },
      list: { ...strip(list), payments: seeded, reads },
      openapi: { latencyMs: summarize(docMs), bytes: Buffer.byteLength(warm.text) },
    };
  } finally {
    await dashboard.stop();
  }
}

// Benchmark 14: accounting exports at once (issue 37, item 5). One dashboard on a fresh embedded database holding a
// year of `payments` payments (made in the database with the server stopped, as in benchmark 12). Six people ask for
// the year's Xero export at the same moment: the instance streams three (one a person, three at once) and answers the
// rest 429 with Retry-After; those three ask again once the first are done. The server's memory (its process tree's
// RSS, sampled every 50 ms) and /api/health's answer time are watched throughout. Target: peak RSS < 600 MB.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { addDays, dayOf } from "@/lib/client/time/zone";
import { treeRssBytes } from "@/tests/support/process-memory";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import { addBulkRows, YEAR_SECONDS } from "./bulk-rows";
import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { createStaff } from "./dashboard-api";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, type Session } from "./session";
import { percentile, round } from "./stats";

export interface ExportsResult {
  payments: number;
  people: number;
  /** Answers to the first six asks at once: 200s streamed, 429s refused (each with Retry-After). */
  streamedAtOnce: number;
  /** The most files being read at one moment (headers in, body not yet ended): the instance allows three. */
  mostOpen: number;
  refusedAtOnce: number;
  refusedWithRetryAfter: number;
  /** Lines in each finished file (header included); every file holds every payment. */
  linesPerFile: number[];
  bytesPerFile: number;
  /** From the six asks to the last file's end, the refused ones asked again once the first were done. */
  totalMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  healthP95Ms: number;
}

/** Reads a response to its end without keeping it: its lines and bytes. */
async function drain(res: Response): Promise<{ lines: number; bytes: number }> {
  let lines = 0;
  let bytes = 0;
  const reader = res.body?.getReader();
  if (!reader) return { lines, bytes };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
  }
  return { lines, bytes };
}

export async function benchExports(ctx: BenchContext): Promise<ExportsResult> {
  const { payments, people } = ctx.options.exports;
  const dataDir = mkdtempSync(path.join(ctx.tempRoot, "exports-"));
  const start = async () =>
    startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
    });
  await (await start()).stop();
  const seeded = performance.now();
  await addBulkRows({ kind: "pglite", dataDir }, payments, 0, 1, 2_000, YEAR_SECONDS);
  ctx.log(`exports: ${payments} payments over a year in ${round((performance.now() - seeded) / 1000)} s`);
  const server = await start();
  try {
    const admin = await signIn(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const sessions: Session[] = [];
    for (let i = 0; i < people; i++) {
      const email = `bench.export${i}@fundboard.test`;
      const password = await createStaff(admin, "operator", email, `bench-export-password-${i}`);
      sessions.push(await signIn(server.url, email, password, nextClientIp()));
    }
    const today = dayOf(new Date(), "Africa/Lagos");
    const file = `/api/payments/export?format=xero&from=${addDays(today, -365)}&to=${today}`;
    const baseline = treeRssBytes(server.proc.pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRssBytes(server.proc.pid))), 50);
    const health: number[] = [];
    let watching = true;
    const healthWatch = (async () => {
      while (watching) {
        const t0 = performance.now();
        const answered = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(30_000) }).then(
          async (res) => (await res.text(), true),
          () => false,
        );
        if (!answered && server.proc.exited) throw new Error(`the dashboard stopped during the exports:\n${server.proc.tail(40)}`);
        health.push(answered ? performance.now() - t0 : 30_000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const t0 = performance.now();
    const finished: { lines: number; bytes: number }[] = [];
    let refused = 0;
    let withRetryAfter = 0;
    let streamed = 0;
    let open = 0;
    let mostOpen = 0;
    const read = async (res: Response) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      try {
        finished.push(await drain(res));
      } finally {
        open--;
      }
    };
    const again: Session[] = [];
    try {
      const first = await Promise.all(sessions.map(async (s) => ({ s, res: await s.fetch(file) })));
      await Promise.all(
        first.map(async ({ s, res }) => {
          if (res.status === 200) {
            streamed++;
            await read(res);
          } else if (res.status === 429) {
            refused++;
            if (Number(res.headers.get("retry-after")) > 0) withRetryAfter++;
            await res.text();
            again.push(s);
          } else throw new Error(`export: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
        }),
      );
      // Those refused ask again now that the first files are done, as Retry-After told them: as many at once as were
      // streamed at first (the server's slots), each next ask after a file ends.
      const lane = async () => {
        for (let s = again.shift(); s; s = again.shift()) {
          const res = await s.fetch(file);
          if (res.status !== 200) throw new Error(`export asked again: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
          await read(res);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, streamed) }, lane));
    } finally {
      clearInterval(sampler);
      watching = false;
      await healthWatch;
    }
    const mb = (bytes: number) => round(bytes / 1024 / 1024);
    const result: ExportsResult = {
      payments,
      people,
      streamedAtOnce: streamed,
      mostOpen,
      refusedAtOnce: refused,
      refusedWithRetryAfter: withRetryAfter,
      linesPerFile: finished.map((f) => f.lines),
      bytesPerFile: finished[0]?.bytes ?? 0,
      totalMs: Math.round(performance.now() - t0),
      baselineRssMb: mb(baseline),
      peakRssMb: mb(peak),
      healthP95Ms: round(
        percentile(
          [...health].sort((a, b) => a - b),
          95,
        ),
      ),
    };
    ctx.log(
      `exports: ${streamed} streamed and ${refused} refused at once (at most ${mostOpen} open), ${finished.length} files of ${result.linesPerFile[0] ?? 0} lines in ${round(result.totalMs / 1000)} s; RSS ${result.baselineRssMb} → peak ${result.peakRssMb} MB; health p95 ${result.healthP95Ms} ms`,
    );
    return result;
  } finally {
    await server.stop();
  }
}

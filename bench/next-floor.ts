// Benchmark 1's floor: what Next.js itself costs. GETs of a route handler that does nothing in the blank Next.js app
// (`next start`) against GETs of the bare node:http server's /health, at intake's concurrency, alternating rounds;
// the dashboard's intake ratio is read against this one (a Next.js route cannot beat the framework's own floor).
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import type { BenchContext } from "./context";
import { startServer } from "./intake";
import { startBlankApp } from "./page-weight";
import { round } from "./stats";

export interface FloorSide {
  /** The best round's requests per second, the median round's, and every round's. */
  perSecond: number;
  medianPerSecond: number;
  roundsPerSecond: number[];
  failed: number;
}

export interface NextFloorResult {
  requests: number;
  concurrency: number;
  next: FloorSide;
  bare: FloorSide;
  /** next / bare, best rounds and median rounds. */
  ratio: number;
  medianRatio: number;
}

/** `count` GETs of `url`, `concurrency` at a time: requests per second, and how many did not answer 200. */
async function hammer(url: string, count: number, concurrency: number): Promise<{ perSecond: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const res = await fetch(url).catch(() => null);
        if (res?.status !== 200) failed += 1;
        await res?.arrayBuffer();
      }
    }),
  );
  return { perSecond: round((count / (performance.now() - t0)) * 1000), failed };
}

function side(rounds: { perSecond: number; failed: number }[]): FloorSide {
  const sorted = rounds.map((r) => r.perSecond).sort((a, b) => a - b);
  return {
    perSecond: sorted[sorted.length - 1] ?? 0,
    medianPerSecond: sorted[Math.floor(sorted.length / 2)] ?? 0,
    roundsPerSecond: rounds.map((r) => r.perSecond),
    failed: rounds.reduce((n, r) => n + r.failed, 0),
  };
}

export async function benchNextFloor(ctx: BenchContext): Promise<NextFloorResult> {
  const { deliveries: requests, concurrency, warmup, rounds } = ctx.options.intake;
  const blank = await startBlankApp(ctx);
  try {
    const bare = await startServer(ctx, "bare", { kind: "pglite" }, mkdtempSync(path.join(ctx.tempRoot, "floor-")));
    try {
      const nextUrl = `${blank.base}/api/empty`;
      const bareUrl = new URL("/health", bare.webhookUrl).toString();
      await hammer(nextUrl, warmup, Math.min(5, concurrency));
      await hammer(bareUrl, warmup, Math.min(5, concurrency));
      const sides = { next: [] as { perSecond: number; failed: number }[], bare: [] as { perSecond: number; failed: number }[] };
      for (let i = 0; i < rounds; i++) {
        sides.bare.push(await hammer(bareUrl, requests, concurrency));
        sides.next.push(await hammer(nextUrl, requests, concurrency));
      }
      const result: NextFloorResult = {
        requests,
        concurrency,
        next: side(sides.next),
        bare: side(sides.bare),
        ratio: 0,
        medianRatio: 0,
      };
      result.ratio = round(result.next.perSecond / result.bare.perSecond, 3);
      result.medianRatio = round(result.next.medianPerSecond / result.bare.medianPerSecond, 3);
      if (result.next.failed + result.bare.failed > 0) throw new Error(`next floor: ${result.next.failed + result.bare.failed} GETs did not answer 200`);
      ctx.log(`next floor: empty route ${result.next.perSecond}/s, bare /health ${result.bare.perSecond}/s = ${result.ratio}×`);
      return result;
    } finally {
      await bare.stop();
    }
  } finally {
    await blank.stop();
  }
}

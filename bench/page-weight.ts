// Benchmark 4: first-load JavaScript (gzip) of every page of the build, and of a blank Next.js 16 page built the same way.
import { readFileSync } from "node:fs";
import path from "node:path";

import { launch, waitForHttp } from "@/tests/support/processes";
import { sleep } from "@/tests/support/wait-for";

import { BLANK_APP_DIR } from "./build";
import type { BenchContext } from "./context";
import { createRequest } from "./dashboard-api";
import { cleanEnv } from "./dashboard";
import { measure, type PageWeight } from "./first-load";
import { freePorts, SERVER_PORTS } from "./ports";
import type { Session } from "./session";
import { round } from "./stats";

export type { PageWeight };

export interface PageProblem {
  route: string;
  reason: string;
}

export interface PageWeightResult {
  pages: PageWeight[];
  /** Pages with a parameter the bench has no sample value for. */
  skipped: PageProblem[];
  /** Pages that could not be measured. */
  failed: PageProblem[];
  blank: PageWeight;
  heaviest: PageWeight;
  /** Heaviest page over the blank page. */
  ratio: number;
}

/** The built app's pages, from the build manifest: /(dashboard)/requests/[id]/page → /requests/[id]. */
export function builtPages(root: string, distDir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, distDir, "server", "app-paths-manifest.json"), "utf8")) as Record<string, string>;
  const routes = Object.keys(manifest)
    .filter((key) => key.endsWith("/page") && !key.startsWith("/_"))
    .map((key) => {
      const segments = key
        .split("/")
        .slice(1, -1)
        .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"));
      return `/${segments.join("/")}`;
    });
  return [...new Set(routes)].sort();
}

/** A request that was accepted and paid, so /requests/[id] and /payments/[uuid] have something to show. */
async function sampleIds(admin: Session): Promise<{ requestId: string; paymentUuid: string | null }> {
  const requestId = await createRequest(admin, "accept.auto");
  for (let i = 0; i < 60; i++) {
    const res = await admin.json<{ paymentUuid: string | null }>(`/api/requests/${requestId}`);
    if (res.data?.paymentUuid) return { requestId, paymentUuid: res.data.paymentUuid };
    await sleep(250);
  }
  return { requestId, paymentUuid: null };
}

export async function measureDashboardPages(
  ctx: BenchContext,
  admin: Session,
): Promise<{ pages: PageWeight[]; skipped: PageProblem[]; failed: PageProblem[] }> {
  const routes = builtPages(ctx.options.root, ctx.distDir);
  const ids = await sampleIds(admin);
  const params: Record<string, string | null> = { "/requests/[id]": ids.requestId, "/payments/[uuid]": ids.paymentUuid };
  const pages: PageWeight[] = [];
  const skipped: PageProblem[] = [];
  const failed: PageProblem[] = [];
  const anonymous = (p: string) => fetch(new URL(p, admin.baseUrl), { redirect: "manual" });
  for (const route of routes) {
    let page = route;
    if (route.includes("[")) {
      const known = Object.entries(params).find(([pattern]) => route === pattern);
      const value = known?.[1];
      if (!value) {
        skipped.push({ route, reason: "no sample value for its parameter" });
        continue;
      }
      page = route.replace(/\[[^\]]+\]/, encodeURIComponent(value));
    }
    // Signed in, every page but the sign-in page itself (which sends a signed-in visitor away).
    const fetchPage = route === "/sign-in" ? anonymous : (p: string) => admin.fetch(p);
    try {
      pages.push(await measure(admin.baseUrl, page, route, fetchPage));
    } catch (error) {
      failed.push({ route, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  ctx.log(
    `page weight: ${pages.length} pages measured${skipped.length ? `, ${skipped.length} skipped` : ""}${failed.length ? `, ${failed.length} FAILED` : ""}`,
  );
  return { pages, skipped, failed };
}

/** Serves the blank app's build and measures its one page. */
export async function measureBlankPage(ctx: BenchContext): Promise<PageWeight> {
  const port = await freePorts(...SERVER_PORTS);
  const dir = path.join(ctx.options.root, BLANK_APP_DIR);
  const { NEXT_DIST_DIR: _dist, ...env } = cleanEnv();
  const proc = launch(`blank app :${port}`, path.join(ctx.options.root, "node_modules", ".bin", "next"), ["start", "-p", String(port)], {
    cwd: dir,
    env: { ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(port) },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/`, proc, 60_000);
    return await measure(base, "/", "/ (blank Next.js app)", (p) => fetch(new URL(p, base)));
  } finally {
    await proc.stop();
  }
}

export function pageWeightResult(measured: { pages: PageWeight[]; skipped: PageProblem[]; failed: PageProblem[] }, blank: PageWeight): PageWeightResult {
  const { pages, skipped, failed } = measured;
  const heaviest = pages.reduce<PageWeight | null>((max, p) => (max === null || p.gzipBytes > max.gzipBytes ? p : max), null);
  if (!heaviest) throw new Error("page weight: no page of the dashboard could be measured");
  return { pages, skipped, failed, blank, heaviest, ratio: round(heaviest.gzipBytes / blank.gzipBytes, 3) };
}

// Benchmark 4: first-load JavaScript (gzip) of every page of the build, and of a blank Next.js 16 page built the same way.
import { readFileSync } from "node:fs";
import path from "node:path";

import { launch, waitForHttp } from "@/tests/support/processes";
import { sleep } from "@/tests/support/wait-for";

import { BLANK_APP_DIR } from "./build";
import type { BenchContext } from "./context";
import { campaignCsv, createRequest, uploadCampaign, uploadPlan } from "./dashboard-api";
import { cleanEnv } from "./dashboard";
import { measure, type PageWeight } from "./first-load";
import { solvedChallenges } from "./pay-challenges";
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
  /** The public pay page (/pay/[slug]) over the blank page: its own target (the challenge worker, loaded later, aside). */
  payPage: PageWeight | null;
  payRatio: number | null;
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

/**
 * Something for every page with a parameter to show: a request that was accepted and paid (/requests/[id],
 * /payments/[uuid]), a two-row draft campaign (/campaigns/[id]) and a two-member plan whose first period is a year
 * away, so it asks nobody (/plans/[id]).
 */
export async function samplePageParams(admin: Session): Promise<PageParams> {
  const requestId = await createRequest(admin, "accept.auto");
  const campaign = await uploadCampaign(admin, "Bench sample campaign", campaignCsv("bench.s", 2));
  const startsOn = `${new Date().getUTCFullYear() + 1}-01-01`;
  const plan = await uploadPlan(
    admin,
    { name: "Bench sample plan", frequency: "monthly", day: "1", sendAt: "09:00", startsOn, descriptionTemplate: "{period} dues" },
    campaignCsv("bench.p", 2),
  );
  const slug = `bench-sample-${Date.now().toString(36)}`;
  const page = await admin.json<{ id: string }>("/api/pay-pages", {
    method: "POST",
    body: JSON.stringify({ slug, title: "Bench sample page", amount: { fixed: "5000" } }),
  });
  if (page.status !== 201) throw new Error(`sample pay page: HTTP ${page.status} ${page.message}`);
  const [altcha] = await solvedChallenges(admin.baseUrl, 1, 1);
  const submitted = await fetch(`${admin.baseUrl}/api/public/pay/${slug}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: admin.baseUrl },
    body: JSON.stringify({ tag: "accept.auto", fields: [], altcha }),
  });
  const statusUrl = ((await submitted.json()) as { data?: { statusUrl?: string } }).data?.statusUrl ?? null;
  let paymentUuid: string | null = null;
  for (let i = 0; i < 60 && !paymentUuid; i++) {
    const res = await admin.json<{ paymentUuid: string | null }>(`/api/requests/${requestId}`);
    paymentUuid = res.data?.paymentUuid ?? null;
    if (!paymentUuid) await sleep(250);
  }
  return {
    "/requests/[id]": requestId,
    "/payments/[uuid]": paymentUuid,
    "/campaigns/[id]": campaign.view.id,
    "/payers/[tag]": "accept.auto",
    "/plans/[id]": plan.id,
    "/pay/[slug]": slug,
    "/pay-pages/[id]/poster": page.data.id,
    "/pay/[slug]/s/[token]": statusUrl ? statusUrl.replace(/^\/pay\//, "") : null,
  };
}

/** Sample values of a built route's parameter, by route (e.g. "/requests/[id]" → a request id); null: none. */
export type PageParams = Record<string, string | null>;

/** The path to request for a built route, its parameter filled in; null when there is no sample value for it. */
export function resolvePage(route: string, params: PageParams): string | null {
  if (!route.includes("[")) return route;
  const value = params[route];
  if (!value) return null;
  // A route with two parameters (/pay/[slug]/s/[token]) takes its sample as the whole tail after its first segment.
  if (route === "/pay/[slug]/s/[token]") return `/pay/${value}`;
  return route.replace(/\[[^\]]+\]/, encodeURIComponent(value));
}

/** Signed in, every page but the sign-in page itself (which sends a signed-in visitor away). */
export function pageFetcher(admin: Session, route: string): (page: string) => Promise<Response> {
  return route === "/sign-in" ? (p) => fetch(new URL(p, admin.baseUrl), { redirect: "manual" }) : (p) => admin.fetch(p);
}

export async function measureDashboardPages(
  ctx: BenchContext,
  admin: Session,
): Promise<{ pages: PageWeight[]; skipped: PageProblem[]; failed: PageProblem[] }> {
  const routes = builtPages(ctx.options.root, ctx.distDir);
  const params = await samplePageParams(admin);
  const pages: PageWeight[] = [];
  const skipped: PageProblem[] = [];
  const failed: PageProblem[] = [];
  for (const route of routes) {
    const page = resolvePage(route, params);
    if (!page) {
      skipped.push({ route, reason: "no sample value for its parameter" });
      continue;
    }
    try {
      pages.push(await measure(admin.baseUrl, page, route, pageFetcher(admin, route)));
    } catch (error) {
      failed.push({ route, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  ctx.log(
    `page weight: ${pages.length} pages measured${skipped.length ? `, ${skipped.length} skipped` : ""}${failed.length ? `, ${failed.length} FAILED` : ""}`,
  );
  return { pages, skipped, failed };
}

/** Serves the blank app's build (`next start`); the caller stops it. */
export async function startBlankApp(ctx: BenchContext): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePorts(...SERVER_PORTS);
  const dir = path.join(ctx.options.root, BLANK_APP_DIR);
  const { NEXT_DIST_DIR: _dist, ...env } = cleanEnv();
  const proc = launch(`blank app :${port}`, path.join(ctx.options.root, "node_modules", ".bin", "next"), ["start", "-p", String(port)], {
    cwd: dir,
    env: { ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PORT: String(port) },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/`, proc, 60_000);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { base, stop: () => proc.stop() };
}

/** Serves the blank app's build and measures its one page. */
export async function measureBlankPage(ctx: BenchContext): Promise<PageWeight> {
  const app = await startBlankApp(ctx);
  try {
    return await measure(app.base, "/", "/ (blank Next.js app)", (p) => fetch(new URL(p, app.base)));
  } finally {
    await app.stop();
  }
}

export function pageWeightResult(measured: { pages: PageWeight[]; skipped: PageProblem[]; failed: PageProblem[] }, blank: PageWeight): PageWeightResult {
  const { pages, skipped, failed } = measured;
  const heaviest = pages.reduce<PageWeight | null>((max, p) => (max === null || p.gzipBytes > max.gzipBytes ? p : max), null);
  if (!heaviest) throw new Error("page weight: no page of the dashboard could be measured");
  const payPage = pages.find((p) => p.route === "/pay/[slug]") ?? null;
  return {
    pages,
    skipped,
    failed,
    blank,
    heaviest,
    ratio: round(heaviest.gzipBytes / blank.gzipBytes, 3),
    payPage,
    payRatio: payPage ? round(payPage.gzipBytes / blank.gzipBytes, 3) : null,
  };
}

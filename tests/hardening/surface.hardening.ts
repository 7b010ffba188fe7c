// Issue 7, items 1, 4 and 7 against one sandbox-mode `next start` of the hardening build:
// the service key never leaves the server, bad input on every route is refused with an envelope and
// writes nothing, hostile strings render as text, and every page carries the security headers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { ROUTE_TABLE, type RouteCase } from "@/e2e/route-table";
import { malformedParam } from "@/lib/http/route-params";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { fetchSolvedAltcha } from "@/tests/support/pay-solve";
import { concretePath, FORM_OF_KIND, pagePatterns, type IdKind, type RealIds } from "@/tests/support/app-paths";
import { payload } from "@/tests/support/payloads";
import { ROOT } from "@/tests/support/paths";
import { sandboxControl as control } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { chooseOwnPassword, CSRF_PATH, CREDENTIALS_PATH, csrfTokenOf, openSession, signIn, type Session } from "@/tests/support/sign-in";
import { TotpDevice } from "@/tests/support/totp-device";
import { waitFor } from "@/tests/support/wait-for";

import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import {
  DEMO,
  DIST_DIR,
  HARDENING_KEY,
  PORTS,
  createRequest,
  isEnvelope,
  keyNeedles,
  sandboxModeEnv,
  startDashboard,
  freshDataDir,
  type Dashboard,
  type Envelope,
  type ListData,
} from "./support";

/** Every page under app/ (each page.tsx, walked), detail pages included: made concrete with the seeded ids below. */
const PAGE_PATTERNS = pagePatterns();
const NEEDLES = keyNeedles(HARDENING_KEY);
const SQL = "' OR 1=1 --";
const SCRIPT = "<script>alert(1)</script>";
const HOSTILE = `${SCRIPT}${SQL}`;
const JSON_TYPE = { "content-type": "application/json" };

/**
 * What went wrong rendering a page, when something did: a page that calls notFound() or throws after the layout
 * has streamed still answers 200, with React's marker of the failed boundary (`<template data-dgst="…">`: its
 * digest, "NEXT_HTTP_ERROR_FALLBACK;404" for "not found") where the content should be. A detail page given an id
 * of the wrong kind shows exactly that.
 */
function streamedFailure(html: string): string | null {
  return /<template[^>]*\sdata-dgst="([^"]*)"/.exec(html)?.[1] ?? null;
}

function leaks(text: string): string[] {
  return NEEDLES.filter((n) => text.includes(n));
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
}

let sandbox: Sandbox;
let app: Dashboard;
let admin: Session;
const data = freshDataDir("surface");
/** Seeded records, so every list and detail page renders something real and every [param] route finds its record. */
const seed: RealIds = {
  request: "",
  payment: payload().uuid,
  staff: "",
  campaign: "",
  session: "",
  payer: "surface.seed",
  plan: "",
  exception: "",
  endpoint: "",
  delivery: "",
  apiKey: "",
  payPage: "",
  paySlug: "surface-page",
  payToken: "",
};
/** The seeded API key's whole value: what the /api/v1 routes are called with (a session's cookies are refused there). */
let seedKey = "";
/** The person the own-account routes (/api/me/…) are called as: the seeded session is their second sign-in. */
const me = { email: "seed.me@hardening.test", password: "seed-me-password", session: null as Session | null };
/** A person whose password the walk changes (which ends their other sessions: never `me`'s). */
const changer = { email: "seed.changer@hardening.test", password: "seed-changer-password" };
/** Rows enough that the seeded campaign is still sending when the walk pauses it (90 calls a minute at most). */
const CAMPAIGN_ROWS = 120;

/** Every page, each [param] the real id of its kind. */
const pages = () => PAGE_PATTERNS.map((p) => concretePath(p, seed));

async function createStaff(email: string, password: string, role: "viewer" | "operator"): Promise<string> {
  const made = await admin.json<Envelope<{ id: string }>>("/api/staff", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email, name: `Seed ${role}`, role, password }),
  });
  expect(made.status, `seed staff ${email}`).toBe(201);
  return made.body.data.id;
}

/** A monthly plan (due on the 1st at 00:00 Lagos time, so the current month is always due) of one invalid member. */
function planForm(name: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name, frequency: "monthly", day: "1", sendAt: "00:00", startsOn: "2026-01-01", descriptionTemplate: "{period} dues" }))
    form.set(k, v);
  form.set("file", new Blob(["tag,amount\nsurface.plan,not-money\n"], { type: "text/csv" }), "roster.csv");
  return form;
}

async function makePlan(name: string): Promise<string> {
  const plan = await admin.json<Envelope<{ id: string }>>("/api/plans", { method: "POST", body: planForm(name) });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  return plan.body.data.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: PORTS.leak.sandbox, apiKey: HARDENING_KEY, autoDelayMs: 200, webhookRetryDelaysMs: [], log: () => {} });
  app = await startDashboard({ port: PORTS.leak.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.leak.sandbox) });
  console.log(`[hardening] surface: dashboard ready in ${app.readyMs} ms`);
  admin = await signIn(app.url, DEMO.email, DEMO.password);
  const created = await createRequest(admin, { tag: "surface.seed", amount: "1500.00", description: "Seeded request" });
  seed.request = created.requestId ?? "";
  const body = JSON.stringify(payload({ uuid: seed.payment }));
  const res = await fetch(`${app.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signedHeaders(body, HARDENING_KEY) });
  expect(res.status, "seed payment").toBe(200);

  // A viewer, signed in as by the privacy test below.
  await createStaff("seed.viewer@hardening.test", "seed-viewer-password", "viewer");
  // The staff routes' target: a viewer with two-step sign-in on, so an admin can reset it.
  seed.staff = await createStaff("seed.target@hardening.test", "seed-target-password", "viewer");
  const viewerPassword = await chooseOwnPassword(app.url, "seed.target@hardening.test", "seed-target-password");
  const viewer = await signIn(app.url, "seed.target@hardening.test", viewerPassword);
  const setup = await viewer.json<Envelope<{ secret: string }>>("/api/me/2fa/setup", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ password: viewerPassword }),
  });
  expect(setup.status, "seed target's two-step set-up").toBe(200);
  const enabled = await viewer.json<Envelope>("/api/me/2fa/enable", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ password: viewerPassword, code: await new TotpDevice(setup.body.data.secret).nextCode() }),
  });
  expect(enabled.status, "seed target's two-step on").toBe(200);

  // The own-account routes' caller, and a second sign-in of theirs: the session id of the sessions route.
  await createStaff(me.email, me.password, "operator");
  me.password = await chooseOwnPassword(app.url, me.email, me.password);
  me.session = await signIn(app.url, me.email, me.password);
  const spare = await signIn(app.url, me.email, me.password);
  const spareMe = await spare.json<Envelope<{ sessionId: string }>>("/api/me");
  expect(spareMe.status, "the spare session's id").toBe(200);
  seed.session = spareMe.body.data.sessionId;
  await createStaff(changer.email, changer.password, "viewer");

  // A draft campaign, which the walk starts, pauses, resumes and cancels.
  const csv = ["tag,amount,description", ...Array.from({ length: CAMPAIGN_ROWS }, (_, i) => `surface.row${i},1,Seeded campaign`)].join("\n");
  const form = new FormData();
  form.set("name", "Seeded campaign");
  form.set("file", new Blob([`${csv}\n`], { type: "text/csv" }), "seed.csv");
  const campaign = await admin.json<Envelope<{ id: string }>>("/api/campaigns", { method: "POST", body: form });
  expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
  seed.campaign = campaign.body.data.id;

  // A plan whose one member is invalid: running its period asks nobody (the tests below count requests).
  seed.plan = await makePlan("Seeded plan");

  // The seeded payment came from a tag nobody asked: it is not linked, and its exception opens with its follow-up.
  seed.exception = await waitFor(
    "the seeded payment's exception",
    async () => {
      const page = await admin.json<Envelope<{ items: { id: string; paymentUuid: string | null }[] }>>("/api/exceptions?kind=unlinked_payment");
      return page.body.data.items.find((e) => e.paymentUuid === seed.payment)?.id;
    },
    30_000,
    100,
  );

  // A pay page and one payer's submission: its status link is the token the public routes and page take.
  const page = await admin.json<Envelope<{ id: string }>>("/api/pay-pages", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ slug: seed.paySlug, title: "Surface dues", amount: { fixed: "5" } }),
  });
  expect(page.status, JSON.stringify(page.body)).toBe(201);
  seed.payPage = page.body.data.id;
  const submitted = await admin.json<Envelope<{ statusUrl: string }>>(`/api/public/pay/${seed.paySlug}`, {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ tag: "surface.payer", fields: [], altcha: await fetchSolvedAltcha(app.url) }),
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  seed.payToken = submitted.body.data.statusUrl.split("/s/")[1] ?? "";

  // An outgoing webhook endpoint at the sandbox's receiver, and a delivered test event (what resend sends again).
  const endpoint = await admin.json<Envelope<{ id: string }>>("/api/webhook-endpoints", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ url: `http://127.0.0.1:${PORTS.leak.sandbox}/sandbox/hooks/surface`, eventTypes: ["pay_page.submitted"] }),
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  seed.endpoint = endpoint.body.data.id;
  const tested = await admin.json<Envelope<{ id: string }>>(`/api/webhook-endpoints/${seed.endpoint}/test`, {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ type: "payment.received" }),
  });
  expect(tested.status, JSON.stringify(tested.body)).toBe(202);
  seed.delivery = tested.body.data.id;
  await waitFor(
    "the seeded test delivery delivered",
    async () => {
      const page = await admin.json<Envelope<{ items: { id: string; status: string }[] }>>(`/api/webhook-endpoints/${seed.endpoint}/deliveries`);
      return page.body.data.items.find((d) => d.id === seed.delivery)?.status === "delivered" ? true : undefined;
    },
    30_000,
    100,
  );

  // An API key of every scope: the /api/v1 routes' caller, then rolled and revoked by the walk.
  const apiKey = await admin.json<Envelope<{ apiKey: { id: string }; key: string }>>("/api/api-keys", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ name: "Surface walk", scopes: "everything", expiresInDays: 1 }),
  });
  expect(apiKey.status, JSON.stringify(apiKey.body)).toBe(201);
  seed.apiKey = apiKey.body.data.apiKey.id;
  seedKey = apiKey.body.data.key;

  // Each seeded id has the form lib/http/route-params.ts asks of its kind: none is a stand-in of another kind.
  for (const [kind, id] of Object.entries(seed) as [IdKind, string][]) expect(malformedParam({ [FORM_OF_KIND[kind]]: id }), `${kind} id ${id}`).toBeNull();
});

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  data.remove();
});

describe("1. the service key never leaves the server", () => {
  it(`is in no file under ${DIST_DIR}/static (nor its base64)`, () => {
    const files: string[] = [];
    walk(path.join(ROOT, DIST_DIR, "static"), files);
    // A scan of nothing proves nothing: the client bundle must be there.
    expect(files.filter((f) => f.endsWith(".js")).length).toBeGreaterThan(5);
    let bytes = 0;
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file).toString("latin1");
      bytes += text.length;
      if (leaks(text).length > 0) found.push(path.relative(ROOT, file));
    }
    console.log(`[hardening] key scan: ${files.length} static files, ${Math.round(bytes / 1024)} KiB, ${found.length} containing the key`);
    expect(found).toEqual([]);
  });

  it("is in no served page (HTML and RSC payload), signed in or not", async () => {
    // The walk of app/ found every page, the campaign and account pages included.
    expect(PAGE_PATTERNS).toEqual(
      expect.arrayContaining(["/", "/account", "/campaigns", "/campaigns/[id]", "/campaigns/new", "/payers/[tag]", "/requests/[id]", "/payments/[uuid]"]),
    );
    const found: string[] = [];
    for (const page of pages()) {
      for (const variant of ["html", "rsc"] as const) {
        const headers: Record<string, string> = variant === "rsc" ? { RSC: "1" } : {};
        let signedIn = await admin.fetch(page, { headers });
        // Next.js sends a flight request without its cache-busting parameter to the URL with one.
        const location = signedIn.headers.get("location") ?? "";
        if (variant === "rsc" && signedIn.status === 307 && location.includes("_rsc")) {
          await signedIn.arrayBuffer();
          signedIn = await admin.fetch(location, { headers });
          expect(signedIn.headers.get("content-type") ?? "", `rsc ${page}`).toMatch(/text\/x-component/);
        }
        // /sign-in sends a signed-in admin home; every other page must render for the admin.
        if (page !== "/sign-in") expect(signedIn.status, `${variant} ${page}`).toBe(200);
        const text = await signedIn.text();
        if (variant === "html") expect(streamedFailure(text), `${variant} ${page}`).toBeNull();
        if (leaks(text).length > 0) found.push(`${variant} ${page} (admin)`);
        const anonymous = await fetch(`${app.url}${page}`, { headers, redirect: "manual" });
        if (leaks(await anonymous.text()).length > 0) found.push(`${variant} ${page} (signed out)`);
      }
    }
    const signInPage = await fetch(`${app.url}/sign-in`);
    expect(signInPage.status).toBe(200);
    if (leaks(await signInPage.text()).length > 0) found.push("/sign-in");
    expect(found).toEqual([]);
  });

  it("is in no API response: every route of the route table, each on its success path too, good answers and bad", async () => {
    const keyOf = (r: RouteCase) => `${r.method} ${r.pattern}`;
    const answers: { route: string; what: string; status: number; location: string; text: string }[] = [];
    const record = async (route: string, what: string, res: Response) => {
      const text = `${JSON.stringify([...res.headers])}\n${await res.text()}`;
      answers.push({ route, what, status: res.status, location: res.headers.get("location") ?? "", text });
    };
    const url = (route: RouteCase) => concretePath(route.pattern, seed, route.method === "POST" ? "callback/credentials" : "session");
    const routeOf = (k: string): RouteCase => {
      const route = ROUTE_TABLE.find((r) => keyOf(r) === k);
      if (!route) throw new Error(`${k} is not in the route table`);
      return route;
    };

    for (const route of ROUTE_TABLE) {
      const target = url(route);
      if (route.pattern === "/api/live") {
        // Server-sent events never end: read the opening chunk only.
        const controller = new AbortController();
        const res = await admin.fetch(target, { signal: controller.signal });
        const first = await res.body?.getReader().read();
        controller.abort();
        answers.push({ route: keyOf(route), what: "GET /api/live (admin)", status: res.status, location: "", text: new TextDecoder().decode(first?.value) });
        continue;
      }
      if (route.method === "GET") {
        await record(keyOf(route), `GET ${target} (admin)`, await admin.fetch(target));
        await record(keyOf(route), `GET ${target} (anonymous)`, await fetch(`${app.url}${target}`, { redirect: "manual" }));
      } else {
        await record(
          keyOf(route),
          `${route.method} ${target} (anonymous)`,
          await fetch(`${app.url}${target}`, { method: route.method, redirect: "manual", headers: JSON_TYPE, body: "{}" }),
        );
      }
    }

    // Every route that changes something, called by someone it allows with what it accepts, in an order where each
    // finds its record in the state it needs (the seeded campaign: start, pause, resume, cancel).
    const mine = me.session;
    if (!mine) throw new Error("no session of the own-account person");
    type CampaignSeen = { status: string; counts: { queued: number; sent: number } };
    const campaignSettled = (done: (c: CampaignSeen) => boolean, what: string) =>
      waitFor(
        what,
        async () => {
          const c = await admin.json<Envelope<CampaignSeen>>(`/api/campaigns/${seed.campaign}`);
          return c.status === 200 && done(c.body.data) ? true : undefined;
        },
        60_000,
        200,
      );
    const post = (session: Session, target: string, body: unknown, method = "POST") =>
      session.fetch(target, { method, headers: JSON_TYPE, body: JSON.stringify(body) });
    let device: TotpDevice | null = null;
    const authenticator = (): TotpDevice => {
      if (!device) throw new Error("two-step set-up gave no secret");
      return device;
    };
    let recoveryCodes: string[] = [];
    /** What the API's own walk makes (a campaign of rows enough to still be sending when paused, an endpoint); the seeded ones until then. */
    const v1 = { campaign: seed.campaign, endpoint: seed.endpoint };
    const walkRows = Array.from({ length: CAMPAIGN_ROWS }, (_, i) => ({ tag: `surface.api${i}`, amount: "1", description: "Walk via the API" }));
    const successCalls: [string, () => Promise<Response>][] = [
      [
        "POST /api/auth/[...nextauth]",
        async () => {
          const fresh = openSession(app.url);
          const csrfToken = csrfTokenOf(await (await fresh.fetch(CSRF_PATH)).json(), "walk sign-in");
          const form = new URLSearchParams({ email: DEMO.email, password: DEMO.password, csrfToken, callbackUrl: "/" }).toString();
          return fresh.fetch(CREDENTIALS_PATH, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
        },
      ],
      ["POST /api/requests", () => post(admin, "/api/requests", { tag: "surface.walk", amount: 10, description: "Walk", idempotencyKey: "walk_request_01" })],
      ["POST /api/pay-pages", () => post(admin, "/api/pay-pages", { slug: "surface-walk", title: "Walk page", amount: { min: "1", max: "10" } })],
      ["PATCH /api/pay-pages/[id]", () => post(admin, url(routeOf("PATCH /api/pay-pages/[id]")), { description: "Walked" }, "PATCH")],
      [
        "POST /api/public/pay/[slug]",
        async () => post(admin, url(routeOf("POST /api/public/pay/[slug]")), { tag: "surface.walker", fields: [], altcha: await fetchSolvedAltcha(app.url) }),
      ],
      [
        "POST /api/staff",
        () => post(admin, "/api/staff", { email: "walk.staff@hardening.test", name: "Walk", role: "viewer", password: "walk-staff-password" }),
      ],
      ["POST /api/staff/[id]/reset-2fa", () => admin.fetch(url(routeOf("POST /api/staff/[id]/reset-2fa")), { method: "POST" })],
      ["PATCH /api/staff/[id]", () => post(admin, url(routeOf("PATCH /api/staff/[id]")), { role: "operator" }, "PATCH")],
      ["POST /api/payments/[uuid]/verify", () => admin.fetch(url(routeOf("POST /api/payments/[uuid]/verify")), { method: "POST" })],
      [
        "POST /api/webhooks/peer-transfer",
        () => {
          const body = JSON.stringify(payload());
          return fetch(`${app.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signedHeaders(body, HARDENING_KEY) });
        },
      ],
      [
        "POST /api/campaigns",
        () => {
          const form = new FormData();
          form.set("name", "Walk campaign");
          form.set("file", new Blob(["tag,amount,description\nsurface.walk,1,Walk\n"], { type: "text/csv" }), "walk.csv");
          return admin.fetch("/api/campaigns", { method: "POST", body: form });
        },
      ],
      ...(["start", "pause", "resume", "cancel"] as const).map((step): [string, () => Promise<Response>] => [
        `POST /api/campaigns/[id]/${step}`,
        async () => {
          const res = await admin.fetch(url(routeOf(`POST /api/campaigns/[id]/${step}`)), { method: "POST" });
          // A row sent before the pause: someone unanswered for ask-again to chase below.
          if (step === "start" && res.status === 200) await campaignSettled((c) => c.counts.sent > 0, "a row of the seeded campaign sent");
          return res;
        },
      ]),
      [
        "POST /api/campaigns/[id]/ask-again",
        async () => {
          // The cancelled campaign's rows in flight are sent (and counted) first: the tests below count requests too.
          await campaignSettled((c) => c.status === "cancelled" && c.counts.queued === 0, "the cancelled campaign's claimed rows to settle");
          return post(admin, url(routeOf("POST /api/campaigns/[id]/ask-again")), { include: ["unanswered"], unansweredForHours: 0 });
        },
      ],
      ["GET /api/payments/export", () => admin.fetch("/api/payments/export?format=quickbooks")],
      ["POST /api/plans", () => admin.fetch("/api/plans", { method: "POST", body: planForm("Walk plan") })],
      ["PATCH /api/plans/[id]", () => post(admin, url(routeOf("PATCH /api/plans/[id]")), { status: "pause" }, "PATCH")],
      [
        "POST /api/plans/[id]/run",
        () =>
          post(admin, url(routeOf("POST /api/plans/[id]/run")), { period: new Date().toLocaleDateString("en-CA", { timeZone: "Africa/Lagos" }).slice(0, 7) }),
      ],
      ["POST /api/exceptions/[id]/resolve", () => post(admin, url(routeOf("POST /api/exceptions/[id]/resolve")), { note: "Walk: settled by hand" })],
      ["POST /api/exceptions/[id]/reopen", () => admin.fetch(url(routeOf("POST /api/exceptions/[id]/reopen")), { method: "POST" })],
      // Cleared, so the walk's own requests to this tag stay possible.
      ["PATCH /api/payers/[tag]", () => post(admin, url(routeOf("PATCH /api/payers/[tag]")), { doNotAsk: false }, "PATCH")],
      [
        "POST /api/me/password",
        async () => {
          // Its own person: a password change ends every other session of theirs.
          const theirs = await signIn(app.url, changer.email, changer.password);
          return post(theirs, "/api/me/password", { currentPassword: changer.password, newPassword: `${changer.password}-new` });
        },
      ],
      ["DELETE /api/me/sessions/[id]", () => mine.fetch(url(routeOf("DELETE /api/me/sessions/[id]")), { method: "DELETE" })],
      ["POST /api/me/sessions/revoke-others", () => mine.fetch("/api/me/sessions/revoke-others", { method: "POST" })],
      [
        "POST /api/me/2fa/setup",
        async () => {
          const res = await post(mine, "/api/me/2fa/setup", { password: me.password });
          device = new TotpDevice(((await res.clone().json()) as Envelope<{ secret: string }>).data.secret);
          return res;
        },
      ],
      ["POST /api/me/2fa/enable", async () => post(mine, "/api/me/2fa/enable", { password: me.password, code: await authenticator().nextCode() })],
      [
        "POST /api/me/2fa/recovery-codes",
        async () => {
          const res = await post(mine, "/api/me/2fa/recovery-codes", { password: me.password, code: await authenticator().nextCode() });
          recoveryCodes = ((await res.clone().json()) as Envelope<{ recoveryCodes?: string[] }>).data.recoveryCodes ?? [];
          return res;
        },
      ],
      // With a recovery code: a third authenticator code could have to wait for the next 30 s step.
      ["POST /api/me/2fa/disable", () => post(mine, "/api/me/2fa/disable", { password: me.password, code: recoveryCodes[0] ?? "" })],
      ["PATCH /api/settings", () => post(admin, "/api/settings", { require2fa: false }, "PATCH")],
      [
        "PUT /api/me/notifications",
        () =>
          post(
            mine,
            "/api/me/notifications",
            { choices: Object.fromEntries(EVENT_TYPES.map((t) => [t, "dashboard"])), paymentThreshold: null, digest: true },
            "PUT",
          ),
      ],
      ["POST /api/notifications/read", () => post(mine, "/api/notifications/read", { all: true })],
      [
        "POST /api/webhook-endpoints",
        () => post(admin, "/api/webhook-endpoints", { url: `http://127.0.0.1:${PORTS.leak.sandbox}/sandbox/hooks/walk`, eventTypes: ["pay_page.submitted"] }),
      ],
      ["PATCH /api/webhook-endpoints/[id]", () => post(admin, url(routeOf("PATCH /api/webhook-endpoints/[id]")), { description: "Walked" }, "PATCH")],
      [
        "POST /api/webhook-endpoints/[id]/rotate-secret",
        () => post(admin, url(routeOf("POST /api/webhook-endpoints/[id]/rotate-secret")), { overlapHours: 1 }),
      ],
      ["POST /api/webhook-endpoints/[id]/reveal", () => admin.fetch(url(routeOf("POST /api/webhook-endpoints/[id]/reveal")), { method: "POST" })],
      ["POST /api/webhook-deliveries/[id]/resend", () => admin.fetch(url(routeOf("POST /api/webhook-deliveries/[id]/resend")), { method: "POST" })],
      ["POST /api/webhook-endpoints/[id]/test", () => post(admin, url(routeOf("POST /api/webhook-endpoints/[id]/test")), { type: "payer.updated" })],
      [
        "POST /api/webhook-endpoints/[id]/recover",
        () => post(admin, url(routeOf("POST /api/webhook-endpoints/[id]/recover")), { since: "2026-01-01T00:00:00Z" }),
      ],
      // Last of the endpoint's: it is deleted.
      ["DELETE /api/webhook-endpoints/[id]", () => admin.fetch(url(routeOf("DELETE /api/webhook-endpoints/[id]")), { method: "DELETE" })],
      ["POST /api/api-keys", () => post(admin, "/api/api-keys", { name: "Walk key", scopes: ["payments:read"], expiresInDays: 1 })],
      // /api/v1 with the seeded key (the walk above sent cookies, which it refuses), before that key is rolled and
      // revoked: a campaign and an endpoint of its own, made, read, moved and deleted in turn.
      ...(
        [
          ["POST /api/v1/campaigns", { name: "Walk via the API", rows: walkRows }],
          ["GET /api/v1/campaigns"],
          ["GET /api/v1/campaigns/[id]"],
          ["GET /api/v1/campaigns/[id]/rows"],
          ["POST /api/v1/campaigns/[id]/start"],
          ["POST /api/v1/campaigns/[id]/pause"],
          ["POST /api/v1/campaigns/[id]/resume"],
          ["POST /api/v1/campaigns/[id]/cancel"],
          ["GET /api/v1/plans"],
          ["GET /api/v1/plans/[id]/board"],
          ["GET /api/v1/reports/daily"],
          ["POST /api/v1/webhook-endpoints", { url: `http://127.0.0.1:${PORTS.leak.sandbox}/sandbox/hooks/walk-v1`, eventTypes: ["pay_page.submitted"] }],
          ["GET /api/v1/webhook-endpoints"],
          ["GET /api/v1/webhook-endpoints/[id]"],
          ["PATCH /api/v1/webhook-endpoints/[id]", { description: "Walked by a key" }],
          ["DELETE /api/v1/webhook-endpoints/[id]"],
          ["GET /api/v1/requests"],
          ["POST /api/v1/requests", { tag: "surface.walk", amount: "10.00", description: "Walk via the API" }],
          ["GET /api/v1/requests/[requestId]"],
          ["GET /api/v1/balance"],
          ["GET /api/v1/payments"],
          ["GET /api/v1/payments/[uuid]"],
          ["GET /api/v1/payers"],
          ["GET /api/v1/payers/[tag]"],
          // Cleared, so the walk's own requests to this tag stay possible.
          ["PATCH /api/v1/payers/[tag]", { doNotAsk: false }],
          ["GET /api/v1/events"],
        ] as const satisfies readonly (readonly [string, unknown?])[]
      ).map(([k, body]): [string, () => Promise<Response>] => [
        k,
        async () => {
          const route = routeOf(k);
          const headers: Record<string, string> = { authorization: `Bearer ${seedKey}`, ...JSON_TYPE };
          if (route.method === "POST") headers["idempotency-key"] = `walk-${k.replace(/\W+/g, "-")}`;
          const target = concretePath(route.pattern, { ...seed, campaign: v1.campaign, endpoint: v1.endpoint });
          const res = await fetch(`${app.url}${target}`, { method: route.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
          const made = res.status === 201 ? ((await res.clone().json()) as Envelope<{ id?: string }>).data.id : undefined;
          if (k === "POST /api/v1/campaigns" && made) v1.campaign = made;
          if (k === "POST /api/v1/webhook-endpoints" && made) v1.endpoint = made;
          // Its rows in flight are sent (and counted) first: the tests below count requests.
          if (k === "POST /api/v1/campaigns/[id]/cancel") {
            await waitFor(
              "the API's cancelled campaign's claimed rows to settle",
              async () => {
                const c = await admin.json<Envelope<CampaignSeen>>(`/api/campaigns/${v1.campaign}`);
                return c.status === 200 && c.body.data.status === "cancelled" && c.body.data.counts.queued === 0 ? true : undefined;
              },
              60_000,
              200,
            );
          }
          return res;
        },
      ]),
      // The old key keeps working an hour, then is revoked for good.
      ["POST /api/api-keys/[id]/roll", () => post(admin, url(routeOf("POST /api/api-keys/[id]/roll")), { overlapHours: 1 })],
      ["DELETE /api/api-keys/[id]", () => admin.fetch(url(routeOf("DELETE /api/api-keys/[id]")), { method: "DELETE" })],
    ];
    for (const [k, call] of successCalls) await record(k, `${k} (allowed)`, await call());
    // Every route of the table answered on its success path at least once: a 2xx (next-auth's sign-in: a redirect
    // without error=), so no route was walked only on its "not found" or "not allowed" path.
    const succeeded = (a: (typeof answers)[number]) =>
      (a.status >= 200 && a.status < 300) || (a.route === "POST /api/auth/[...nextauth]" && a.status === 302 && !a.location.includes("error="));
    const reached = new Set(answers.filter(succeeded).map((a) => a.route));
    const missed = ROUTE_TABLE.map(keyOf)
      .filter((k) => !reached.has(k))
      .map(
        (k) =>
          `${k}: ${answers
            .filter((a) => a.route === k)
            .map((a) => `${a.status} ${a.what} ${a.text.split("\n")[1]?.slice(0, 160) ?? ""}`)
            .join(" | ")}`,
      );
    expect(missed, "routes never answered on their success path").toEqual([]);
    await record("", "GET /api/balance?refresh=1", await admin.fetch("/api/balance?refresh=1"));
    await record("", "GET /api/payments?format=csv", await admin.fetch("/api/payments?format=csv"));
    await record("", "GET /api/auth/providers", await fetch(`${app.url}/api/auth/providers`));
    await record("", "GET /api/auth/csrf", await fetch(`${app.url}/api/auth/csrf`));
    await record("", "POST /api/requests (invalid)", await admin.fetch("/api/requests", { method: "POST", headers: JSON_TYPE, body: "{}" }));
    await record(
      "",
      "POST /api/requests (unknown user at the service)",
      await admin.fetch("/api/requests", {
        method: "POST",
        headers: JSON_TYPE,
        body: JSON.stringify({ tag: "missing.person", amount: 10, description: "leak check", idempotencyKey: "leak_missing_1" }),
      }),
    );
    await record("", `GET /api/requests/999999999 (not found)`, await admin.fetch("/api/requests/999999999"));
    await record("", `GET /api/campaigns/<nobody's uuid> (not found)`, await admin.fetch(`/api/campaigns/${payload().uuid}`));
    const body = JSON.stringify(payload());
    await record(
      "",
      "webhook, bad signature",
      await fetch(`${app.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signedHeaders(body, "not-the-key") }),
    );
    await record("", "GET /api/webhook-events (after deliveries)", await admin.fetch("/api/webhook-events"));

    const statuses = answers.map((a) => `${a.status} ${a.what}`);
    // The walk reached the handlers: the admin's reads answered 200, the anonymous ones 401.
    expect(statuses).toContain(`200 GET /api/requests/${seed.request} (admin)`);
    expect(statuses).toContain(`200 GET /api/campaigns/${seed.campaign} (admin)`);
    expect(statuses).toContain("200 GET /api/balance (admin)");
    expect(statuses).toContain("401 GET /api/balance (anonymous)");
    expect(answers.length).toBeGreaterThan(25);
    expect(answers.filter((a) => leaks(a.text).length > 0).map((a) => a.what)).toEqual([]);
  });
});

describe("7. security headers on every page", () => {
  const STRICT_REFERRER = ["no-referrer", "strict-origin", "strict-origin-when-cross-origin", "same-origin"];

  /** The policy's directives by name (sources keep their case: nonces are case-sensitive). */
  function directives(csp: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const part of csp.split(";")) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (name) out.set(name.toLowerCase(), sources);
    }
    return out;
  }

  /** What governs scripts: script-src, or default-src without it. */
  function scriptSources(csp: string): string[] {
    const d = directives(csp);
    return d.get("script-src") ?? d.get("default-src") ?? [];
  }

  function nonceOf(headers: Headers): string | undefined {
    for (const source of scriptSources(headers.get("content-security-policy") ?? "")) {
      const match = /^'nonce-([^']+)'$/.exec(source);
      if (match) return match[1];
    }
    return undefined;
  }

  /** `page`: a document, which must carry the proxy's nonce policy rather than the nonce-less fallback. */
  function headerProblems(what: string, headers: Headers, page: boolean): string[] {
    const problems: string[] = [];
    const csp = headers.get("content-security-policy");
    if (!csp) return [`${what}: no Content-Security-Policy`];
    // Two CSP headers arrive joined by ", ": the browser enforces both, so a nonce-less one would block every script.
    if (csp.includes(",")) problems.push(`${what}: more than one CSP (${csp})`);
    const directiveList = csp.split(";").map((d) => d.trim().toLowerCase().replace(/\s+/g, " "));
    const scripts = scriptSources(csp).map((s) => s.toLowerCase());
    if (/unsafe-eval/i.test(csp)) problems.push(`${what}: CSP allows 'unsafe-eval'`);
    if (scripts.includes("'unsafe-inline'")) problems.push(`${what}: script-src allows 'unsafe-inline' (${csp})`);
    if (!directiveList.includes("frame-ancestors 'none'")) problems.push(`${what}: CSP lacks frame-ancestors 'none' (${csp})`);
    if (page && nonceOf(headers) === undefined) problems.push(`${what}: script-src has no nonce (${csp})`);
    if (page && !scripts.includes("'strict-dynamic'")) problems.push(`${what}: script-src lacks 'strict-dynamic' (${csp})`);
    // APP_URL is http://localhost here: HSTS would lock browsers out of a plain-http install.
    if (headers.has("strict-transport-security")) problems.push(`${what}: HSTS sent although APP_URL is http`);
    if (headers.get("x-content-type-options") !== "nosniff") problems.push(`${what}: X-Content-Type-Options is ${headers.get("x-content-type-options")}`);
    // With several policies the last one the browser understands wins.
    const referrer =
      (headers.get("referrer-policy") ?? "")
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .at(-1) ?? "";
    if (!STRICT_REFERRER.includes(referrer)) problems.push(`${what}: Referrer-Policy is "${referrer}"`);
    return problems;
  }

  function scriptTags(html: string): string[] {
    return html.match(/<script\b[^>]*>/gi) ?? [];
  }

  /** Every <script> must carry this response's nonce, or the browser refuses to run it. */
  function scriptNonceProblems(what: string, html: string, nonce: string | undefined): string[] {
    const tags = scriptTags(html);
    if (tags.length === 0) return [`${what}: no <script> tag at all`];
    return tags.filter((tag) => /\snonce="([^"]*)"/i.exec(tag)?.[1] !== nonce).map((tag) => `${what}: ${tag.slice(0, 160)} lacks nonce ${nonce}`);
  }

  async function getPage(page: string): Promise<Response> {
    // /sign-in is for the signed-out; every other page is fetched as the admin and must render.
    return page === "/sign-in" ? fetch(`${app.url}${page}`) : admin.fetch(page);
  }

  it("sends a nonce CSP with 'strict-dynamic' (no 'unsafe-inline'/'unsafe-eval', frame-ancestors 'none'), nosniff and a strict Referrer-Policy on every page, a fresh nonce each time", async () => {
    const problems: string[] = [];
    for (const page of pages()) {
      const nonces: (string | undefined)[] = [];
      for (const attempt of [1, 2]) {
        const res = await getPage(page);
        const what = `${page} (#${attempt})`;
        expect(res.status, what).toBe(200);
        expect(res.headers.get("content-type") ?? "", what).toMatch(/text\/html/);
        problems.push(...headerProblems(what, res.headers, true));
        const nonce = nonceOf(res.headers);
        nonces.push(nonce);
        const html = await res.text();
        const failure = streamedFailure(html);
        if (failure !== null) problems.push(`${what}: the page failed to render (${failure})`);
        problems.push(...scriptNonceProblems(what, html, nonce));
      }
      if (nonces[0] === undefined || nonces[0] === nonces[1]) problems.push(`${page}: the nonce did not change between two requests (${nonces.join(" / ")})`);
    }
    expect(problems).toEqual([]);
  });

  it("puts the response's own nonce on every <script> of the sign-in page", async () => {
    const res = await fetch(`${app.url}/sign-in`);
    expect(res.status).toBe(200);
    const nonce = nonceOf(res.headers);
    expect(nonce, "a nonce in script-src").toMatch(/^[A-Za-z0-9+/]{16,}={0,2}$/);
    const html = await res.text();
    // Both the framework's inline payload and its chunk files are there, and each carries the nonce.
    expect(
      scriptTags(html).some((tag) => /\ssrc=/i.test(tag)),
      "an external script",
    ).toBe(true);
    expect(
      scriptTags(html).some((tag) => !/\ssrc=/i.test(tag)),
      "an inline script",
    ).toBe(true);
    expect(scriptNonceProblems("/sign-in", html, nonce)).toEqual([]);
  });

  it("sends a CSP without 'unsafe-inline' for scripts on redirects, the not-found page, API answers and static files too", async () => {
    const signInHtml = await (await fetch(`${app.url}/sign-in`)).text();
    const chunk = /<script\b[^>]*\ssrc="(\/_next\/static\/[^"]+)"/i.exec(signInHtml)?.[1];
    expect(chunk, "a /_next/static script on the sign-in page").toBeDefined();
    const notFound = await admin.fetch("/no-such-page");
    const notFoundHtml = await notFound.text();
    const cases: [string, Response, boolean][] = [
      ["/ signed out (redirect)", await fetch(`${app.url}/`, { redirect: "manual" }), true],
      ["/payments signed out (redirect)", await fetch(`${app.url}/payments?page=2`, { redirect: "manual" }), true],
      ["/sign-in signed in (redirect)", await admin.fetch("/sign-in"), true],
      ["/no-such-page", notFound, true],
      ["/api/health", await fetch(`${app.url}/api/health`), false],
      ["/api/balance signed out", await fetch(`${app.url}/api/balance`, { redirect: "manual" }), false],
      ["/api/no-such-route", await fetch(`${app.url}/api/no-such-route`, { redirect: "manual" }), false],
      ["/logo.svg", await fetch(`${app.url}/logo.svg`), false],
      [`${chunk ?? "(no chunk)"}`, await fetch(`${app.url}${chunk ?? "/_next/static/none.js"}`), false],
    ];
    expect(cases.map(([what, r]) => `${what} ${r.status}`)).toEqual([
      "/ signed out (redirect) 307",
      "/payments signed out (redirect) 307",
      "/sign-in signed in (redirect) 307",
      "/no-such-page 404",
      "/api/health 200",
      "/api/balance signed out 401",
      "/api/no-such-route 404",
      "/logo.svg 200",
      `${chunk ?? "(no chunk)"} 200`,
    ]);
    // Session-less page visits still go to sign-in (the API is never redirected: it answered 401 above).
    expect(cases[0]?.[1].headers.get("location") ?? "").toMatch(/^(https?:\/\/[^/]+)?\/sign-in\?callbackUrl=%2F/);
    expect(cases[1]?.[1].headers.get("location") ?? "").toMatch(/^(https?:\/\/[^/]+)?\/sign-in\?callbackUrl=%2Fpayments/);
    expect(cases.flatMap(([what, res, page]) => headerProblems(what, res.headers, page))).toEqual([]);
    expect(scriptNonceProblems("/no-such-page", notFoundHtml, nonceOf(notFound.headers))).toEqual([]);
    await Promise.all(cases.filter(([, res]) => !res.bodyUsed).map(([, res]) => res.body?.cancel()));
  });
});

describe("4. bad input on every route", () => {
  interface Counts {
    requests: number;
    payments: number;
    staff: number;
    deliveries: number;
    serviceCreates: number;
  }

  async function counts(): Promise<Counts> {
    const total = async (p: string) => {
      const res = await admin.json<Envelope<ListData<unknown>>>(p);
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}`);
      return res.body.data.total;
    };
    const calls = await control(sandbox.apiUrl).calls();
    return {
      requests: await total("/api/requests"),
      payments: await total("/api/payments"),
      staff: await total("/api/staff"),
      deliveries: await total("/api/webhook-events"),
      serviceCreates: calls["POST /api/v1/transfer/request/peer"] ?? 0,
    };
  }

  interface Answer {
    status: number;
    text: string;
    /** The Allow header (fetch answers only). */
    allow?: string | null;
  }

  /** A raw HTTP request: chunked bodies without Content-Length, which fetch cannot send. */
  function raw(method: string, p: string, headers: Record<string, string>, chunks: string[]): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${app.url}${p}`, { method, headers: { ...headers, cookie: admin.cookie(), origin: app.url } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  }

  async function call(method: string, p: string, init: { headers?: Record<string, string>; body?: string; anonymous?: boolean } = {}): Promise<Answer> {
    const requestInit: RequestInit = { method, headers: init.headers, body: init.body, redirect: "manual" };
    const res = init.anonymous ? await fetch(`${app.url}${p}`, requestInit) : await admin.fetch(p, requestInit);
    return { status: res.status, text: await res.text(), allow: res.headers.get("allow") };
  }

  /** "" when the answer is the expected 4xx with a `{status:false, message}` envelope; otherwise what is wrong. */
  function judge(what: string, answer: Answer, expected: number | readonly number[], envelope = true): string {
    const allowed = typeof expected === "number" ? [expected] : expected;
    const problems: string[] = [];
    if (!allowed.includes(answer.status)) problems.push(`status ${answer.status}, expected ${allowed.join(" or ")}`);
    if (answer.status < 400 || answer.status > 499) problems.push("not a 4xx");
    if (envelope) {
      let body: unknown = null;
      try {
        body = JSON.parse(answer.text);
      } catch {
        // Reported below.
      }
      if (!isEnvelope(body)) problems.push(`no envelope (body: ${JSON.stringify(answer.text.slice(0, 80))})`);
      else if (body.status !== false || body.message.trim() === "") problems.push(`envelope without a message: ${answer.text.slice(0, 120)}`);
    }
    return problems.length ? `${what}: ${problems.join("; ")}` : "";
  }

  /** Each [param] the real id of its kind (a campaign's for campaign routes, a session's for the sessions route). */
  const concrete = (pattern: string, method: string) => concretePath(pattern, seed, method === "POST" ? "callback/credentials" : "session");

  it("a wrong method is refused with 405, an envelope message and an Allow header naming the route's own methods, on every route", async () => {
    const before = await counts();
    const methodsOf = new Map<string, Set<string>>();
    for (const r of ROUTE_TABLE) methodsOf.set(r.pattern, (methodsOf.get(r.pattern) ?? new Set()).add(r.method));
    const problems: string[] = [];
    let tried = 0;
    for (const [pattern, methods] of methodsOf) {
      const nextAuth = pattern.includes("[...nextauth]");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (methods.has(method)) continue;
        const p = concrete(pattern, method);
        const answer = await call(method, p, method === "GET" ? {} : { headers: JSON_TYPE, body: "{}" });
        tried += 1;
        // next-auth's own endpoints speak its protocol, not our envelope; they must still refuse with a 4xx.
        const problem = judge(`${method} ${p}`, answer, 405, !nextAuth);
        if (problem) problems.push(problem);
        // The Allow header lists exactly the methods the route takes (RFC 9110 15.5.6), in any order.
        const allowed = (answer.allow ?? "")
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean)
          .sort();
        if (!nextAuth && allowed.join(",") !== [...methods].sort().join(",")) {
          problems.push(`${method} ${p}: Allow ${JSON.stringify(answer.allow ?? null)}, expected ${[...methods].sort().join(", ")}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(40);
    expect(problems).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it("malformed JSON, oversized bodies, wrong types, unknown fields and a wrong content type are refused; nothing is written", async () => {
    const before = await counts();
    const big = JSON.stringify({ tag: "big.body", amount: 10, description: "x".repeat(20_000), idempotencyKey: "big_body_0001" });
    const validRequest = { tag: "valid.tag", amount: 10, description: "fine", idempotencyKey: "abuse_valid_01" };
    const staffPath = `/api/staff/${seed.staff}`;
    const cases: { what: string; method: string; path: string; body: string; headers?: Record<string, string>; expected: number | number[] }[] = [
      // POST /api/requests
      { what: "requests: malformed JSON", method: "POST", path: "/api/requests", body: '{"tag": "ab.cd", "amount": ', expected: 400 },
      { what: "requests: oversized", method: "POST", path: "/api/requests", body: big, expected: 413 },
      {
        what: "requests: wrong types",
        method: "POST",
        path: "/api/requests",
        body: JSON.stringify({ tag: 5, amount: [], description: {}, idempotencyKey: null }),
        expected: 422,
      },
      { what: "requests: unknown field", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, status: "accepted" }), expected: 422 },
      { what: "requests: array body", method: "POST", path: "/api/requests", body: "[]", expected: 422 },
      { what: "requests: null body", method: "POST", path: "/api/requests", body: "null", expected: 422 },
      { what: "requests: empty body", method: "POST", path: "/api/requests", body: "", expected: 400 },
      {
        what: "requests: text/plain",
        method: "POST",
        path: "/api/requests",
        body: JSON.stringify(validRequest),
        headers: { "content-type": "text/plain" },
        expected: 415,
      },
      { what: "requests: SQL in tag", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, tag: SQL }), expected: 422 },
      { what: "requests: script in tag", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, tag: SCRIPT }), expected: 422 },
      { what: "requests: SQL in amount", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, amount: `10${SQL}` }), expected: 422 },
      { what: "requests: negative amount", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, amount: -5 }), expected: 422 },
      { what: "requests: huge amount", method: "POST", path: "/api/requests", body: JSON.stringify({ ...validRequest, amount: 1e300 }), expected: 422 },
      {
        what: "requests: description too long",
        method: "POST",
        path: "/api/requests",
        body: JSON.stringify({ ...validRequest, description: SCRIPT.repeat(10) }),
        expected: 422,
      },
      {
        what: "requests: control characters",
        method: "POST",
        path: "/api/requests",
        body: JSON.stringify({ ...validRequest, description: `a\u0000b${SCRIPT}` }),
        expected: 422,
      },
      {
        what: "requests: SQL in idempotency key",
        method: "POST",
        path: "/api/requests",
        body: JSON.stringify({ ...validRequest, idempotencyKey: SQL }),
        expected: 422,
      },
      // POST /api/staff
      { what: "staff: malformed JSON", method: "POST", path: "/api/staff", body: "{email:", expected: 400 },
      {
        what: "staff: oversized",
        method: "POST",
        path: "/api/staff",
        body: JSON.stringify({ email: "a@b.co", name: "x".repeat(20_000), role: "viewer", password: "long-enough-pw" }),
        expected: 413,
      },
      {
        what: "staff: wrong types",
        method: "POST",
        path: "/api/staff",
        body: JSON.stringify({ email: 1, name: [], role: "root", password: 5 }),
        expected: 422,
      },
      {
        what: "staff: unknown field",
        method: "POST",
        path: "/api/staff",
        body: JSON.stringify({ email: "x@hardening.test", name: "X", role: "viewer", password: "long-enough-pw", disabled: false }),
        expected: 422,
      },
      {
        what: "staff: SQL in e-mail",
        method: "POST",
        path: "/api/staff",
        body: JSON.stringify({ email: `${SQL}@x.test`, name: "X", role: "viewer", password: "long-enough-pw" }),
        expected: 422,
      },
      {
        what: "staff: script as role",
        method: "POST",
        path: "/api/staff",
        body: JSON.stringify({ email: "y@hardening.test", name: "Y", role: SCRIPT, password: "long-enough-pw" }),
        expected: 422,
      },
      // PATCH /api/staff/[id]
      { what: "staff patch: malformed JSON", method: "PATCH", path: staffPath, body: '{"role":', expected: 400 },
      { what: "staff patch: oversized", method: "PATCH", path: staffPath, body: JSON.stringify({ role: "viewer", pad: "x".repeat(20_000) }), expected: 413 },
      { what: "staff patch: wrong types", method: "PATCH", path: staffPath, body: JSON.stringify({ role: 5, disabled: "yes" }), expected: 422 },
      { what: "staff patch: unknown field", method: "PATCH", path: staffPath, body: JSON.stringify({ role: "viewer", passwordHash: "x" }), expected: 422 },
      { what: "staff patch: empty object", method: "PATCH", path: staffPath, body: "{}", expected: 422 },
      { what: "staff patch: SQL as role", method: "PATCH", path: staffPath, body: JSON.stringify({ role: SQL }), expected: 422 },
      {
        what: "staff patch: SQL as id",
        method: "PATCH",
        path: `/api/staff/${encodeURIComponent(SQL)}`,
        body: JSON.stringify({ role: "viewer" }),
        expected: [400, 404],
      },
    ];
    const problems: string[] = [];
    for (const c of cases) {
      const answer = await call(c.method, c.path, { headers: c.headers ?? JSON_TYPE, body: c.body });
      const problem = judge(c.what, answer, c.expected);
      if (problem) problems.push(problem);
    }
    // A body streamed without Content-Length must be capped by its real size too.
    const chunked = await raw("POST", "/api/requests", JSON_TYPE, [big.slice(0, 10_000), big.slice(10_000)]);
    const chunkedProblem = judge("requests: oversized, chunked", chunked, 413);
    if (chunkedProblem) problems.push(chunkedProblem);
    expect(problems).toEqual([]);
    expect(await counts()).toEqual(before);
  });

  it("the webhook refuses unsigned, malformed, oversized and ill-typed deliveries; each is only logged", async () => {
    const before = await counts();
    const good = JSON.stringify(payload());
    const signedPost = (body: string, headers: Record<string, string> = signedHeaders(body, HARDENING_KEY)) =>
      call("POST", "/api/webhooks/peer-transfer", { headers, body, anonymous: true });
    const oversized = JSON.stringify(payload({ description: "x".repeat(70 * 1024) }));
    const cases: [string, Promise<Answer>, number][] = [
      ["unsigned", call("POST", "/api/webhooks/peer-transfer", { headers: JSON_TYPE, body: good, anonymous: true }), 401],
      ["wrong key", signedPost(good, signedHeaders(good, "another-environments-key")), 401],
      ["signature of another body", signedPost(good, signedHeaders(JSON.stringify(payload()), HARDENING_KEY)), 401],
      ["malformed JSON, signed", signedPost('{"type":"peer-transfer.success",'), 400],
      ["wrong types, signed", signedPost(JSON.stringify(payload({ amount: "lots", uuid: 5, customer: SQL }))), 400],
      ["SQL as uuid, signed", signedPost(JSON.stringify(payload({ uuid: SQL }))), 400],
      ["negative amount, signed", signedPost(JSON.stringify(payload({ amount: -1500 }))), 400],
      ["oversized, signed", signedPost(oversized), 413],
      ["text/plain, signed", signedPost(good, { ...signedHeaders(good, HARDENING_KEY), "content-type": "text/plain" }), 415],
    ];
    const problems: string[] = [];
    for (const [what, answer, expected] of cases) {
      const problem = judge(`webhook: ${what}`, await answer, expected);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
    // Every delivery is in the delivery log (docs/architecture.md: "logged as a rejected delivery"); nothing else is written.
    // Rejections are written after the answer (nothing waits on them), so the count is awaited.
    const expected = { ...before, deliveries: before.deliveries + cases.length };
    await waitFor("every delivery in the log", async () => ((await counts()).deliveries >= expected.deliveries ? true : undefined), 10_000, 100);
    expect(await counts()).toEqual(expected);
  });

  it("hostile path parameters and query strings are refused or find nothing; nothing is written", async () => {
    const before = await counts();
    expect(before.requests).toBeGreaterThan(0);
    expect(before.payments).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const value of [SQL, SCRIPT, "../../etc/passwd", "x".repeat(65)]) {
      const id = encodeURIComponent(value);
      for (const [what, method, p] of [
        ["request", "GET", `/api/requests/${id}`],
        ["payment", "GET", `/api/payments/${id}`],
        ["re-verify", "POST", `/api/payments/${id}/verify`],
      ] as const) {
        const answer = await call(method, p);
        // A path that leaves the route ("../") is simply not found; anything reaching the handler is a 400.
        const problem = judge(`${what} ${JSON.stringify(value)}`, answer, [400, 404]);
        if (problem) problems.push(problem);
      }
    }
    // The detail pages too: a stray "%" (which a careless decode throws on) or any non-id shows the
    // page's "not found" (streamed after the layout, so the status may already be 200), never the error page.
    for (const value of ["%", "%E0%A4%A", SQL, SCRIPT]) {
      for (const [page, heading] of [
        [`/requests/${encodeURIComponent(value)}`, "Request not found"],
        [`/payments/${encodeURIComponent(value)}`, "Payment not found"],
      ] as const) {
        const res = await admin.fetch(page);
        const html = await res.text();
        if (![200, 404].includes(res.status) || !html.includes(heading)) problems.push(`page ${page}: ${res.status}, without "${heading}"`);
      }
    }
    expect(problems).toEqual([]);

    // Search terms are data, not SQL: an always-true clause must find nothing instead of everything.
    for (const p of [
      `/api/requests?tag=${encodeURIComponent(SQL)}&status=${encodeURIComponent(SCRIPT)}&page=-1`,
      `/api/requests?tag=${encodeURIComponent("%")}`,
      `/api/payments?q=${encodeURIComponent(SQL)}&verified=${encodeURIComponent(SCRIPT)}&page=abc`,
      `/api/payments?q=${encodeURIComponent("%' OR '1'='1")}&from=${encodeURIComponent(SQL)}`,
      `/api/payments?tag=${encodeURIComponent(SQL)}`,
    ]) {
      const res = await admin.json<Envelope<ListData<unknown>>>(p);
      expect(res.status, p).toBe(200);
      expect(res.body.data.total, p).toBe(0);
    }
    const events = await admin.json<Envelope<ListData<unknown>>>(`/api/webhook-events?page=${encodeURIComponent(SQL)}`);
    expect(events.status).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it("script- and SQL-looking text that is valid is stored verbatim and every page shows it as text", async () => {
    const description = HOSTILE;
    const request = await createRequest(admin, { tag: "hostile.person", amount: 12, description });
    expect(request.description).toBe(description);
    const staff = await admin.json<Envelope<{ id: string; name: string }>>("/api/staff", {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ email: "hostile.name@hardening.test", name: HOSTILE, role: "viewer", password: "hostile-password-1" }),
    });
    expect(staff.status).toBe(201);
    expect(staff.body.data.name).toBe(HOSTILE);
    const delivered = payload({
      description: HOSTILE,
      customer: { ...payload().customer, name: HOSTILE, tag: "hostile.payer" },
      meta: { peer_tag: "hostile.payer", name: HOSTILE },
    });
    const body = JSON.stringify(delivered);
    const res = await fetch(`${app.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signedHeaders(body, HARDENING_KEY) });
    expect(res.status).toBe(200);
    const stored = await admin.json<Envelope<{ description: string; customer: { name: string } }>>(`/api/payments/${delivered.uuid}`);
    expect(stored.body.data.description).toBe(HOSTILE);
    expect(stored.body.data.customer.name).toBe(HOSTILE);

    const escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    const pages: [string, boolean][] = [
      [`/requests/${request.requestId}`, true],
      ["/requests", true],
      ["/", true],
      ["/staff", true],
      ["/payments", true],
      [`/payments/${delivered.uuid}`, true],
      ["/webhooks", false],
      ["/audit", false],
    ];
    const problems: string[] = [];
    for (const [page, mustShow] of pages) {
      const html = await (await admin.fetch(page)).text();
      if (html.includes("<script>alert(1)")) problems.push(`${page}: the raw <script>alert(1) is in the HTML`);
      // Where the record is listed, the text is there, escaped: it was rendered, not dropped.
      if (mustShow && !html.includes(escaped)) problems.push(`${page}: the escaped text is missing`);
    }
    expect(problems).toEqual([]);
  });
});

describe("promises of issue 22: privacy", () => {
  interface Contact {
    email: string | null;
    phone: string | null;
  }
  interface PaymentSeen {
    uuid: string;
    customer: Contact & { name: string };
  }

  /** A request to a sandbox user who accepts by themselves; answers the uuid of the payment linked to it. */
  async function paidRequest(tag: string, amount: string): Promise<{ requestId: string; paymentUuid: string }> {
    const made = await createRequest(admin, { tag, amount, description: "Privacy" });
    const requestId = made.requestId ?? "";
    const paymentUuid = await waitFor(
      `the payment of ${tag} to be linked to its request`,
      async () => (await admin.json<Envelope<{ paymentUuid: string | null }>>(`/api/requests/${requestId}`)).body.data.paymentUuid ?? undefined,
      60_000,
      100,
    );
    return { requestId, paymentUuid };
  }

  it("a viewer gets e-mail and phone masked in the API and in every CSV download; an admin gets them whole", async () => {
    const stamp = Date.now().toString(36);
    // One payment of a single request, and one of a campaign's row: every CSV then has a row touching a payment.
    const single = await paidRequest(`accept.mask${stamp}`, "1234.00");
    const form = new FormData();
    form.set("name", `Privacy ${stamp}`);
    form.set("file", new Blob([`tag,amount,description\naccept.maskc${stamp},500,Dues\n`], { type: "text/csv" }), "rows.csv");
    const uploaded = await admin.json<Envelope<{ id: string }>>("/api/campaigns", { method: "POST", body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const campaignId = uploaded.body.data.id;
    expect((await admin.fetch(`/api/campaigns/${campaignId}/start`, { method: "POST" })).status).toBe(200);
    const payerName = await waitFor(
      "the campaign row's payment to be linked",
      async () => {
        const rows = await admin.json<Envelope<ListData<{ paidBy: string | null }>>>(`/api/campaigns/${campaignId}/rows`);
        return rows.body.data.items[0]?.paidBy ?? undefined;
      },
      90_000,
      200,
    );

    // What an admin sees: the contacts whole (the sandbox's consumers have both).
    const whole = (await admin.json<Envelope<PaymentSeen>>(`/api/payments/${single.paymentUuid}`)).body.data.customer;
    expect(whole.email).toMatch(/^[^•]+@example\.com$/);
    expect(whole.phone).toMatch(/^\+234\d{10}$/);
    const rawEmail = whole.email ?? "";
    const rawPhone = whole.phone ?? "";
    const needles = [rawEmail, rawEmail.slice(0, rawEmail.indexOf("@")), rawPhone, rawPhone.replace(/\D/g, "")];
    // The admin's payments CSV carries them: the viewer's checks below look where the contacts would be.
    expect(await (await admin.fetch("/api/payments?format=csv")).text()).toContain(rawEmail);

    const viewer = await signIn(app.url, "seed.viewer@hardening.test", await chooseOwnPassword(app.url, "seed.viewer@hardening.test", "seed-viewer-password"));
    const tag = `accept.mask${stamp}`;
    const reads: [string, (text: string) => void][] = [
      [`/api/payments?tag=${tag}`, (t) => expect(t).toContain(single.paymentUuid)],
      [`/api/payments/${single.paymentUuid}`, (t) => expect(t).toContain(single.paymentUuid)],
      ["/api/payments?format=csv", (t) => expect(t).toContain(single.paymentUuid)],
      [`/api/payments?format=csv&tag=${tag}`, (t) => expect(t).toContain(single.paymentUuid)],
      ["/api/requests?format=csv", (t) => expect(t).toContain(single.paymentUuid)],
      [`/api/requests/${single.requestId}`, (t) => expect(t).toContain(single.paymentUuid)],
      [`/api/campaigns/${campaignId}/results.csv`, (t) => expect(t).toContain(payerName)],
      [`/api/campaigns/${campaignId}/rows`, (t) => expect(t).toContain(payerName)],
      ["/api/desk", (t) => expect(t.length).toBeGreaterThan(0)],
    ];
    const leaks: string[] = [];
    for (const [p, holds] of reads) {
      const res = await viewer.fetch(p);
      const text = await res.text();
      expect(res.status, p).toBe(200);
      holds(text);
      for (const needle of needles) if (text.includes(needle)) leaks.push(`${p} shows ${needle}`);
    }
    expect(leaks).toEqual([]);
    // Masked, not dropped: the viewer sees the shape of each.
    const masked = (await viewer.json<Envelope<PaymentSeen>>(`/api/payments/${single.paymentUuid}`)).body.data.customer;
    expect(masked.email).toBe(`${rawEmail[0]}•••${rawEmail.slice(rawEmail.indexOf("@"))}`);
    expect(masked.phone).toBe(`•••••••${rawPhone.slice(-4)}`);
    expect(await (await viewer.fetch(`/api/payments?format=csv&tag=${tag}`)).text()).toContain(masked.email);
  });
});

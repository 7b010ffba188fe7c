import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";

import type { Role } from "../lib/client/auth/roles";
import { EVENT_TYPES } from "../lib/client/events/catalogue";
import { ERROR_CODES } from "../lib/client/http/error-codes";
import { totpCode } from "../lib/auth/totp";
import { DEV_API_KEY } from "@/lib/config/dev-key";
import { payload } from "../tests/support/payloads";
import { signedHeaders } from "../tests/support/sign-delivery";
import { ROUTE_TABLE, type RouteCase } from "./route-table";
import { BASE_URL, DEMO_ADMIN, SANDBOX_URL, createStaff, newSession } from "./support";
import { makePayPage, submitPayPage } from "./pay-support";
import { nextStepCode, turnOnTwoStep } from "./two-step-support";

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

/** Each exported HTTP method of each app/api route file, as "METHOD /api/pattern". */
function exportedRoutes(): string[] {
  return routeFiles("app/api").flatMap((file) => {
    const pattern = `/${path.dirname(path.relative("app", file)).split(path.sep).join("/")}`;
    const source = readFileSync(file, "utf8");
    const methods = new Set<string>();
    for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1] ?? "");
    // Destructured handlers (next-auth's), but not the 405 answers of otherMethods().
    for (const m of source.matchAll(/export\s+const\s+\{([^}]*)\}\s*=\s*(\w+)/g)) {
      if (m[2] === "otherMethods") continue;
      for (const name of (m[1] ?? "").split(",").map((s) => s.trim())) if (/^(GET|POST|PUT|PATCH|DELETE)$/.test(name)) methods.add(name);
    }
    return [...methods].map((method) => `${method} ${pattern}`);
  });
}

test("the route table covers every exported route handler", () => {
  const table = ROUTE_TABLE.map((r) => `${r.method} ${r.pattern}`).sort();
  expect(exportedRoutes().sort()).toEqual(table);
});

type Caller = "anonymous" | Role;
const CALLERS: Caller[] = ["anonymous", "viewer", "operator", "admin"];

/** The payer the matrix's own request asks (its payer page and do-not-ask routes use it). */
const MATRIX_TAG = "matrix.person";

test.describe("every route × every role", () => {
  const sessions = new Map<Caller, APIRequestContext>();
  let staffTargetId = "";
  let requestId = "";
  let paymentUuid = "";
  let campaignId = "";
  /** A campaign whose one row was sent and waits for its person: ask-again's unanswered always has someone to chase. */
  let chaseCampaignId = "";
  /** A plan the reads and the schedule change share (the run gets a fresh one each). */
  let planId = "";
  let endpointId = "";
  let deliveryId = "";
  let payPage = { id: "", slug: "" };
  let payToken = "";

  /** An outgoing webhook endpoint at the sandbox's receiver, for an event type nothing sends (only tests reach it). */
  async function matrixEndpoint(): Promise<string> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const made = await admin.post("/api/webhook-endpoints", {
      headers: { Origin: BASE_URL },
      data: { url: `${SANDBOX_URL}/sandbox/hooks/matrix`, description: "Route matrix", eventTypes: ["pay_page.submitted"] },
    });
    expect(made.status(), await made.text()).toBe(201);
    return ((await made.json()) as { data: { id: string } }).data.id;
  }
  /** A fresh API key made by the admin (revoke and roll each use one up: a revoked or rolled key cannot be again). */
  async function matrixApiKey(scopes: "everything" | "read_only" = "read_only"): Promise<{ id: string; key: string }> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const made = await admin.post("/api/api-keys", { headers: { Origin: BASE_URL }, data: { name: "Route matrix", scopes, expiresInDays: 1 } });
    expect(made.status(), await made.text()).toBe(201);
    const { apiKey, key } = ((await made.json()) as { data: { apiKey: { id: string }; key: string } }).data;
    return { id: apiKey.id, key };
  }
  /** Every campaign made here: cancelled in afterAll too, so one left sending by a failure cannot starve later specs. */
  const madeCampaigns: string[] = [];

  /**
   * A draft campaign uploaded by the admin, moved through `steps` first. One that is started gets more
   * rows (120) than the 90-a-minute budget can send at once, so it is still sending when the next step
   * arrives; a one-row campaign could finish first, and pausing a finished campaign is rightly a 409.
   */
  async function campaignIn(steps: ("start" | "pause")[]): Promise<string> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const rows = steps.includes("start") ? 120 : 1;
    const csv = ["tag,amount,description", ...Array.from({ length: rows }, (_, i) => `accept.matrix${i},1,Matrix`)].join("\n");
    const made = await admin.post("/api/campaigns", {
      headers: { Origin: BASE_URL },
      multipart: { name: "Matrix", file: { name: "matrix.csv", mimeType: "text/csv", buffer: Buffer.from(`${csv}\n`) } },
    });
    expect(made.status(), await made.text()).toBe(201);
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    madeCampaigns.push(id);
    for (const step of steps) expect((await admin.post(`/api/campaigns/${id}/${step}`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
    return id;
  }

  /**
   * A monthly plan due on the 1st at 00:00 in Lagos (so this month is always due) of one invalid member: a run asks
   * nobody. A fresh one per run: a period runs once.
   */
  async function planToRun(): Promise<string> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const made = await admin.post("/api/plans", {
      headers: { Origin: BASE_URL },
      multipart: {
        name: "Matrix plan",
        frequency: "monthly",
        day: "1",
        sendAt: "00:00",
        startsOn: "2026-01-01",
        descriptionTemplate: "{period} matrix dues",
        file: { name: "roster.csv", mimeType: "text/csv", buffer: Buffer.from("tag,amount\nmatrix.member,not-money\n") },
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    return ((await made.json()) as { data: { id: string } }).data.id;
  }

  /** An exception in `state`: a payment from a tag nobody asked is not linked, and its exception opens at once. */
  async function exceptionIn(state: "open" | "resolved"): Promise<string> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const tag = `nobody.asked${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const body = JSON.stringify(payload({ meta: { peer_tag: tag, name: "Nobody Asked" } }));
    expect((await admin.post("/api/webhooks/peer-transfer", { data: body, headers: signedHeaders(body, DEV_API_KEY) })).status()).toBe(200);
    const uuid = (JSON.parse(body) as { uuid: string }).uuid;
    let id = "";
    await expect
      .poll(
        async () => {
          const page = (await (await admin.get("/api/exceptions?kind=unlinked_payment")).json()) as { data: { items: { id: string; paymentUuid: string }[] } };
          id = page.data.items.find((e) => e.paymentUuid === uuid)?.id ?? "";
          return id;
        },
        { timeout: 30_000 },
      )
      .not.toBe("");
    if (state === "resolved")
      expect((await admin.post(`/api/exceptions/${id}/resolve`, { headers: { Origin: BASE_URL }, data: { note: "Matrix" } })).status()).toBe(200);
    return id;
  }

  /** A started campaign of one row to a tag nobody answers, once that row is sent. */
  async function sentToOneWhoWaits(admin: APIRequestContext): Promise<string> {
    const csv = `tag,amount,description\nwaits.matrix${Date.now().toString(36)},3,Matrix chase\n`;
    const made = await admin.post("/api/campaigns", {
      headers: { Origin: BASE_URL },
      multipart: { name: "Matrix chase", file: { name: "chase.csv", mimeType: "text/csv", buffer: Buffer.from(csv) } },
    });
    expect(made.status(), await made.text()).toBe(201);
    const id = ((await made.json()) as { data: { id: string } }).data.id;
    expect((await admin.post(`/api/campaigns/${id}/start`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
    await expect
      .poll(async () => ((await (await admin.get(`/api/campaigns/${id}`)).json()) as { data: { counts: { sent: number } } }).data.counts.sent, {
        timeout: 60_000,
      })
      .toBe(1);
    return id;
  }

  test.beforeAll(async () => {
    const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
    sessions.set("admin", admin);
    for (const role of ["viewer", "operator"] as const) {
      const person = await createStaff(admin, role);
      sessions.set(role, await newSession(person.email, person.password));
    }
    staffTargetId = (await createStaff(admin, "viewer")).id;
    const made = await admin.post("/api/requests", {
      headers: { Origin: BASE_URL },
      data: { tag: MATRIX_TAG, amount: "12.50", description: "Route matrix", idempotencyKey: `matrix${Date.now()}` },
    });
    expect(made.status(), await made.text()).toBe(201);
    requestId = ((await made.json()) as { data: { requestId: string } }).data.requestId;
    const body = JSON.stringify(payload());
    const delivered = await admin.post("/api/webhooks/peer-transfer", {
      data: body,
      headers: signedHeaders(body, DEV_API_KEY),
    });
    expect(delivered.status()).toBe(200);
    paymentUuid = (JSON.parse(body) as { uuid: string }).uuid;
    sessions.set("anonymous", await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] } }));
    campaignId = await campaignIn([]);
    chaseCampaignId = await sentToOneWhoWaits(admin);
    planId = await planToRun();
    endpointId = await matrixEndpoint();
    payPage = await makePayPage(admin);
    const submitted = await submitPayPage(admin, payPage.slug, "matrix.payer");
    expect(submitted.status(), await submitted.text()).toBe(202);
    payToken = ((await submitted.json()) as { data: { statusUrl: string } }).data.statusUrl.split("/s/")[1] ?? "";
    // A delivered test event: what resend sends again.
    const tested = await admin.post(`/api/webhook-endpoints/${endpointId}/test`, { headers: { Origin: BASE_URL }, data: { type: "payment.received" } });
    expect(tested.status(), await tested.text()).toBe(202);
    deliveryId = ((await tested.json()) as { data: { id: string } }).data.id;
    await expect
      .poll(
        async () =>
          ((await (await admin.get(`/api/webhook-endpoints/${endpointId}/deliveries`)).json()) as { data: { items: { status: string }[] } }).data.items[0]
            ?.status,
        {
          timeout: 30_000,
        },
      )
      .toBe("delivered");
  });

  test.afterAll(async () => {
    const admin = sessions.get("admin");
    for (const id of madeCampaigns) await admin?.post(`/api/campaigns/${id}/cancel`, { headers: { Origin: BASE_URL } });
    for (const ctx of sessions.values()) await ctx.dispose();
  });

  type Answer = { status: number; body: { status: boolean; message: string; code?: unknown } };

  /** A fresh person of `role` with two-step sign-in on (what reset-2fa needs to answer 2xx). */
  async function personWithTwoStep(role: Role): Promise<string> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const person = await createStaff(admin, role);
    const theirs = await newSession(person.email, person.password);
    try {
      await turnOnTwoStep(theirs, person.password);
    } finally {
      await theirs.dispose();
    }
    return person.id;
  }

  // A request each route accepts when the caller is allowed (so "allowed" means a real 2xx).
  async function call(ctx: APIRequestContext, route: RouteCase, caller: Caller): Promise<Answer> {
    if (caller !== "anonymous" && OWN_ACCOUNT.has(`${route.method} ${route.pattern}`)) return ownAccountCall(caller, route);
    const headers = { Origin: BASE_URL };
    // Each state change gets a campaign in the state it starts from; the reads share one.
    const before: Record<string, ("start" | "pause")[]> = { start: [], pause: ["start"], resume: ["start", "pause"], cancel: [] };
    const step = /^\/api\/campaigns\/\[id\]\/(start|pause|resume|cancel)$/.exec(route.pattern)?.[1];
    const target = route.pattern.startsWith("/api/exceptions/[id]")
      ? await exceptionIn(route.pattern.endsWith("/reopen") ? "resolved" : "open")
      : route.pattern.startsWith("/api/plans/")
        ? route.pattern.endsWith("/run")
          ? await planToRun()
          : planId
        : route.pattern.startsWith("/api/campaigns/")
          ? step
            ? await campaignIn(before[step] ?? [])
            : campaignId
          : route.pattern.startsWith("/api/webhook-endpoints/[id]")
            ? route.method === "DELETE"
              ? await matrixEndpoint()
              : endpointId
            : route.pattern === "/api/webhook-deliveries/[id]/resend"
              ? deliveryId
              : route.pattern === "/api/staff/[id]/reset-2fa"
                ? await personWithTwoStep("viewer")
                : route.pattern === "/api/me/sessions/[id]"
                  ? randomUUID()
                  : route.pattern.startsWith("/api/api-keys/[id]")
                    ? (await matrixApiKey()).id
                    : route.pattern.startsWith("/api/pay-pages/[id]")
                      ? payPage.id
                      : staffTargetId;
    const url = route.pattern
      .replace("[id]", route.pattern.endsWith("/ask-again") ? chaseCampaignId : target)
      .replace("[requestId]", requestId)
      .replace("[uuid]", paymentUuid)
      .replace("[tag]", MATRIX_TAG)
      .replace("[slug]", payPage.slug)
      .replace("[token]", payToken);
    if (route.pattern === "/api/live") return liveCall(ctx);
    const res = await send(ctx, route, url, headers);
    // A campaign left sending would spend the budget other specs need: cancel it (a 409 if already over).
    if (step) await sessions.get("admin")?.post(`/api/campaigns/${target}/cancel`, { headers });
    if (res.headers()["content-type"]?.startsWith("text/csv"))
      return { status: res.status(), body: { status: res.ok(), message: (await res.text()).slice(0, 80) } };
    // A pay page's QR code: an image, not an envelope.
    if (res.headers()["content-type"]?.startsWith("image/"))
      return { status: res.status(), body: { status: res.ok(), message: `${(await res.body()).length} bytes` } };
    // The API's document is OpenAPI, not an envelope.
    if (route.pattern === "/api/v1/openapi.json") {
      const document = (await res.json()) as { openapi?: unknown };
      return { status: res.status(), body: { status: res.ok() && typeof document.openapi === "string", message: `openapi ${String(document.openapi)}` } };
    }
    return { status: res.status(), body: (await res.json()) as { status: boolean; message: string } };
  }

  // Routes that change the caller's own account (password, second step, sessions): each signed-in caller is a
  // fresh person of its role, so neither the matrix's sessions nor the demo admin's stored one is ever signed out or changed.
  const OWN_ACCOUNT = new Set([
    "POST /api/me/password",
    "POST /api/me/2fa/setup",
    "POST /api/me/2fa/enable",
    "POST /api/me/2fa/disable",
    "POST /api/me/2fa/recovery-codes",
    "DELETE /api/me/sessions/[id]",
    "POST /api/me/sessions/revoke-others",
  ]);

  async function ownAccountCall(role: Role, route: RouteCase): Promise<Answer> {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const person = await createStaff(admin, role);
    const own = await newSession(person.email, person.password);
    // The sessions routes end a second sign-in of the same person, which must then be refused.
    const second = route.pattern.startsWith("/api/me/sessions/") ? await newSession(person.email, person.password) : null;
    const headers = { Origin: BASE_URL };
    try {
      let res: APIResponse;
      switch (`${route.method} ${route.pattern}`) {
        case "POST /api/me/password":
          res = await own.post(route.pattern, { headers, data: { currentPassword: person.password, newPassword: "matrix-new-password" } });
          break;
        case "POST /api/me/2fa/setup":
          res = await own.post(route.pattern, { headers, data: { password: person.password } });
          break;
        case "POST /api/me/2fa/enable": {
          const setup = await own.post("/api/me/2fa/setup", { headers, data: { password: person.password } });
          expect(setup.status(), await setup.text()).toBe(200);
          const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
          res = await own.post(route.pattern, { headers, data: { password: person.password, code: totpCode(secret, Date.now()) } });
          break;
        }
        case "POST /api/me/2fa/disable":
        case "POST /api/me/2fa/recovery-codes": {
          const { secret } = await turnOnTwoStep(own, person.password);
          // A code is good once: the step after the one that enabled it.
          res = await own.post(route.pattern, { headers, data: { password: person.password, code: nextStepCode(secret) } });
          break;
        }
        case "DELETE /api/me/sessions/[id]": {
          if (!second) throw new Error("no second session");
          const me = (await (await second.get("/api/me")).json()) as { data: { sessionId: string } };
          res = await own.delete(`/api/me/sessions/${encodeURIComponent(me.data.sessionId)}`, { headers });
          break;
        }
        default:
          res = await own.fetch(route.pattern, { method: route.method, headers });
      }
      const answer: Answer = { status: res.status(), body: (await res.json()) as Answer["body"] };
      if (second && res.ok()) expect((await second.get("/api/me")).status(), "the ended session is refused").toBe(401);
      if (res.ok()) expect((await own.get("/api/me")).status(), "the caller's own session stays open").toBe(200);
      return answer;
    } finally {
      await own.dispose();
      await second?.dispose();
    }
  }

  // The event stream never ends: read the status and the first bytes, then hang up.
  async function liveCall(ctx: APIRequestContext) {
    const { cookies } = await ctx.storageState();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const controller = new AbortController();
    const res = await fetch(`${BASE_URL}/api/live`, { headers: cookie ? { cookie } : {}, signal: controller.signal });
    try {
      if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
        const reader = res.body?.getReader();
        const first = await reader?.read();
        const text = new TextDecoder().decode(first?.value);
        return { status: res.status, body: { status: text.includes(": connected"), message: text } };
      }
      return { status: res.status, body: (await res.json()) as { status: boolean; message: string } };
    } finally {
      controller.abort();
    }
  }

  async function send(ctx: APIRequestContext, route: RouteCase, url: string, headers: Record<string, string>): Promise<APIResponse> {
    switch (`${route.method} ${route.pattern}`) {
      case "POST /api/requests":
        return ctx.post(url, {
          headers,
          data: { tag: "matrix.person", amount: 1, description: "Matrix", idempotencyKey: `m${Date.now()}${Math.random().toString(36).slice(2)}` },
        });
      case "POST /api/staff":
        return ctx.post(url, {
          headers,
          data: { email: `matrix.${Date.now()}.${Math.random().toString(36).slice(2)}@e2e.test`, name: "Matrix", role: "viewer", password: "matrix-password" },
        });
      case "PATCH /api/staff/[id]":
        return ctx.patch(url, { headers, data: { role: "viewer" } });
      case "PATCH /api/payers/[tag]":
        // Always cleared: the matrix's own requests to this tag must keep working.
        return ctx.patch(url, { headers, data: { doNotAsk: false } });
      case "POST /api/campaigns/[id]/ask-again": {
        const res = await ctx.post(url, { headers, data: { include: ["unanswered"], unansweredForHours: 0 } });
        // One draft round a campaign at a time: this one is discarded so the next role's ask finds room.
        if (res.status() === 201) {
          const made = (await res.json()) as { data: { campaign: { id: string } } };
          await ctx.post(`/api/campaigns/${made.data.campaign.id}/cancel`, { headers });
        }
        return res;
      }
      case "GET /api/payments/export":
        return ctx.get(`${url}?format=xero`, { headers });
      case "POST /api/plans":
        return ctx.post(url, {
          headers,
          multipart: {
            name: "Matrix plan",
            frequency: "weekly",
            day: "1",
            sendAt: "09:00",
            startsOn: "2099-01-01",
            descriptionTemplate: "{period} matrix",
            file: { name: "m.csv", mimeType: "text/csv", buffer: Buffer.from("tag,amount\nmatrix.weekly,5\n") },
          },
        });
      case "PATCH /api/plans/[id]":
        return ctx.patch(url, { headers, data: { schedule: { frequency: "monthly", day: 1, sendAt: "00:00", startsOn: "2026-01-01", endsOn: null } } });
      case "POST /api/exceptions/[id]/resolve":
        return ctx.post(url, { headers, data: { note: "Matrix: settled by hand" } });
      case "POST /api/plans/[id]/run":
        return ctx.post(url, { headers, data: { period: new Date().toLocaleDateString("en-CA", { timeZone: "Africa/Lagos" }).slice(0, 7) } });
      case "PATCH /api/settings":
        // Always off: other specs must never see two-step sign-in required.
        return ctx.patch(url, { headers, data: { require2fa: false } });
      case "PUT /api/me/notifications":
        return ctx.put(url, { headers, data: { choices: Object.fromEntries(EVENT_TYPES.map((t) => [t, "dashboard"])), paymentThreshold: null, digest: true } });
      case "POST /api/notifications/read":
        return ctx.post(url, { headers, data: { all: true } });
      case "POST /api/webhook-endpoints":
        return ctx.post(url, { headers, data: { url: `${SANDBOX_URL}/sandbox/hooks/matrix`, eventTypes: ["pay_page.submitted"] } });
      case "PATCH /api/webhook-endpoints/[id]":
        return ctx.patch(url, { headers, data: { description: "Route matrix, changed" } });
      case "POST /api/webhook-endpoints/[id]/rotate-secret":
        return ctx.post(url, { headers, data: { overlapHours: 0 } });
      case "POST /api/webhook-endpoints/[id]/test":
        return ctx.post(url, { headers, data: { type: "payer.updated" } });
      case "POST /api/webhook-endpoints/[id]/recover":
        return ctx.post(url, { headers, data: { since: "2026-01-01T00:00:00Z" } });
      case "POST /api/api-keys":
        return ctx.post(url, { headers, data: { name: "Route matrix", scopes: ["payments:read"], expiresInDays: 1 } });
      case "POST /api/api-keys/[id]/roll":
        return ctx.post(url, { headers, data: { overlapHours: 0 } });
      case "POST /api/pay-pages":
        return ctx.post(url, {
          headers,
          data: { slug: `matrix-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, title: "Matrix page", amount: { fixed: "5" } },
        });
      case "PATCH /api/pay-pages/[id]":
        return ctx.patch(url, { headers, data: { description: "Route matrix, changed" } });
      case "POST /api/public/pay/[slug]":
        return submitPayPage(ctx, payPage.slug, "matrix.payer");
      case "POST /api/campaigns":
        return ctx.post(url, {
          headers,
          multipart: { name: "Matrix", file: { name: "m.csv", mimeType: "text/csv", buffer: Buffer.from("tag,amount,description\naccept.matrix,1,Matrix\n") } },
        });
      default:
        return ctx.fetch(url, { method: route.method, headers });
    }
  }

  for (const route of ROUTE_TABLE.filter((r) => Array.isArray(r.allowed) || r.allowed === "public")) {
    for (const caller of CALLERS) {
      test(`${route.method} ${route.pattern} as ${caller}`, async () => {
        const ctx = sessions.get(caller);
        if (!ctx) throw new Error(`no session for ${caller}`);
        const { status, body } = await call(ctx, route, caller);
        // Every error answer carries a code from the closed list (docs/architecture.md, "Error codes"); next-auth's routes are not walked here.
        if (status >= 400) expect(ERROR_CODES, `${status} ${body.message}`).toContain(body.code);
        const expected = route.allowed === "public" ? "2xx" : caller === "anonymous" ? 401 : route.allowed.includes(caller) ? "2xx" : 403;
        if (expected === "2xx") {
          expect(status, body.message).toBeGreaterThanOrEqual(200);
          expect(status, body.message).toBeLessThan(300);
          expect(body.status).toBe(true);
        } else {
          expect(status, body.message).toBe(expected);
          expect(body.status).toBe(false);
          expect(body.code).toBe(expected === 401 ? "unauthenticated" : "forbidden");
          expect(body.message.length).toBeGreaterThan(10);
        }
      });
    }
  }

  // /api/v1 takes an API key, never a session (docs/architecture.md "The API"): every caller's cookies, and none, are
  // refused 401 `unauthenticated` before anything else is looked at; the admin's key of every scope is answered 2xx.
  const keyRoutes = ROUTE_TABLE.filter((r) => r.allowed === "api-key");
  /** A campaign a key's action starts from the state it needs (as the dashboard's walk above), or the shared one. */
  async function v1Target(route: RouteCase): Promise<string> {
    const step = /^\/api\/v1\/campaigns\/\[id\]\/(start|pause|resume|cancel)$/.exec(route.pattern)?.[1];
    const before: Record<string, ("start" | "pause")[]> = { start: [], pause: ["start"], resume: ["start", "pause"], cancel: [] };
    if (step) return campaignIn(before[step] ?? []);
    if (route.pattern.startsWith("/api/v1/campaigns/")) return campaignId;
    if (route.pattern.startsWith("/api/v1/plans/")) return planId;
    if (route.pattern.startsWith("/api/v1/webhook-endpoints/")) return route.method === "DELETE" ? matrixEndpoint() : endpointId;
    return "";
  }
  /** What each API route is sent (a POST its Idempotency-Key too), and what it made undone after, so later specs find room. */
  async function v1Call(ctx: APIRequestContext, route: RouteCase, headers: Record<string, string>, id = campaignId): Promise<APIResponse> {
    const url = route.pattern.replace("[id]", id).replace("[requestId]", requestId).replace("[uuid]", paymentUuid).replace("[tag]", MATRIX_TAG);
    const post = { ...headers, "Idempotency-Key": randomUUID() };
    switch (`${route.method} ${route.pattern}`) {
      case "POST /api/v1/requests":
        return ctx.post(url, { headers: post, data: { tag: MATRIX_TAG, amount: "1.00", description: "Matrix v1" } });
      case "PATCH /api/v1/payers/[tag]":
        // Always cleared: the matrix's own requests to this tag must keep working.
        return ctx.patch(url, { headers, data: { doNotAsk: false } });
      case "POST /api/v1/campaigns":
        return ctx.post(url, { headers: post, data: { name: "Matrix v1", rows: [{ tag: "accept.matrixv1", amount: "1", description: "Matrix v1" }] } });
      case "POST /api/v1/webhook-endpoints":
        return ctx.post(url, { headers: post, data: { url: `${SANDBOX_URL}/sandbox/hooks/matrix`, eventTypes: ["pay_page.submitted"] } });
      case "PATCH /api/v1/webhook-endpoints/[id]":
        return ctx.patch(url, { headers, data: { description: "Route matrix, changed by a key" } });
      default:
        return ctx.fetch(url, { method: route.method, headers: route.method === "POST" ? post : headers });
    }
  }

  for (const route of keyRoutes) {
    for (const caller of CALLERS) {
      test(`${route.method} ${route.pattern} as ${caller} (a session, no key)`, async () => {
        const ctx = sessions.get(caller);
        if (!ctx) throw new Error(`no session for ${caller}`);
        // Any id will do: the key is checked before the path's id.
        const res = await v1Call(ctx, route, { Origin: BASE_URL }, randomUUID());
        const body = (await res.json()) as Answer["body"];
        expect(res.status(), body.message).toBe(401);
        expect(ERROR_CODES, body.message).toContain(body.code);
        expect(body.code).toBe("unauthenticated");
        expect(body.status).toBe(false);
        expect(body.message.length).toBeGreaterThan(10);
      });
    }
  }

  test("every /api/v1 operation answers 2xx to a key of every scope", async () => {
    expect(keyRoutes.length).toBeGreaterThanOrEqual(10);
    const admin = sessions.get("admin");
    const anonymous = sessions.get("anonymous");
    if (!admin || !anonymous) throw new Error("no admin or anonymous context");
    const { key } = await matrixApiKey("everything");
    const answers: string[] = [];
    for (const route of keyRoutes) {
      const id = await v1Target(route);
      const res = await v1Call(anonymous, route, { Authorization: `Bearer ${key}` }, id);
      const body = (await res.json()) as Answer["body"] & { data?: { id?: string } };
      answers.push(`${route.method} ${route.pattern} ${res.ok() && body.status === true ? "2xx" : `${res.status()} ${body.message}`}`);
      // What the key made or started is undone, as the dashboard's walk does: a draft or a sending campaign cancelled
      // (a 409 when already over), an endpoint deleted.
      const made = body.data?.id ?? "";
      if (route.pattern.startsWith("/api/v1/campaigns/[id]/")) await admin.post(`/api/campaigns/${id}/cancel`, { headers: { Origin: BASE_URL } });
      if (`${route.method} ${route.pattern}` === "POST /api/v1/campaigns" && made)
        await admin.post(`/api/campaigns/${made}/cancel`, { headers: { Origin: BASE_URL } });
      if (`${route.method} ${route.pattern}` === "POST /api/v1/webhook-endpoints" && made)
        await admin.delete(`/api/webhook-endpoints/${made}`, { headers: { Origin: BASE_URL } });
    }
    expect(answers).toEqual(keyRoutes.map((r) => `${r.method} ${r.pattern} 2xx`));
  });

  test("every mutating route of the table refuses a foreign Origin with 403, before it reads or changes anything", async () => {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const mutating = ROUTE_TABLE.filter((r) => r.method !== "GET" && Array.isArray(r.allowed));
    expect(mutating.length).toBeGreaterThan(10);
    const answers: string[] = [];
    for (const route of mutating) {
      // Every path parameter a fresh id: the Origin check comes before the route looks anything up.
      const url = route.pattern.replace(/\[[^\]]+\]/g, randomUUID());
      const res = await admin.fetch(url, { method: route.method, headers: { Origin: "https://evil.example", "content-type": "application/json" }, data: "{}" });
      const body = (await res.json()) as { message: string; code?: unknown };
      answers.push(`${route.method} ${route.pattern} ${res.status()} ${String(body.code)} ${/Origin mismatch/.test(body.message) ? "origin" : body.message}`);
    }
    expect(answers).toEqual(mutating.map((r) => `${r.method} ${r.pattern} 403 forbidden origin`));
  });

  test("a mutating route refuses a request from another origin, or with none", async () => {
    const admin = sessions.get("admin");
    if (!admin) throw new Error("no admin session");
    const data = { email: `csrf.${Date.now()}@e2e.test`, name: "CSRF", role: "viewer", password: "csrf-password-1" };
    expect((await admin.post("/api/staff", { data, headers: { Origin: "https://evil.example" } })).status()).toBe(403);
    expect((await admin.post("/api/staff", { data })).status()).toBe(403);
    const list = (await (await admin.get("/api/staff")).json()) as { data: { items: { email: string }[] } };
    expect(list.data.items.some((s) => s.email === data.email)).toBe(false);
  });
});

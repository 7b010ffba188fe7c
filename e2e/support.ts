// The e2e suite's own fixtures: its ports and URLs, sessions as Playwright request contexts, staff to
// sign in as, and the e2e sandbox's control API. Shared parts come from tests/support (relative paths:
// this file is also loaded by playwright.config.ts).
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page } from "@playwright/test";

import { DEMO_ADMIN } from "../lib/auth/demo";
import type { Role } from "../lib/client/auth/roles";
import { sandboxControl } from "../tests/support/sandbox-control";
import { fakeAddress, signInWith } from "../tests/support/sign-in";
import { waitFor } from "../tests/support/wait-for";

/** The ports playwright.config.ts chose (free ones, unless E2E_PORT / E2E_SANDBOX_PORT were given). */
function portFromEnv(name: "E2E_PORT" | "E2E_SANDBOX_PORT"): number {
  const port = Number(process.env[name]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${name} is not set: run the e2e suite through playwright.config.ts (npm run test:e2e)`);
  return port;
}
export const E2E_PORT = portFromEnv("E2E_PORT");
export const E2E_SANDBOX_PORT = portFromEnv("E2E_SANDBOX_PORT");
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const SANDBOX_URL = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
/** This run's name: the embedded and the Postgres runs keep their data, sign-in state and results apart (CI runs them at once). */
export const E2E_RUN = process.env.E2E_POSTGRES === "1" ? "e2e-postgres" : "e2e";
export const ADMIN_STATE = `e2e/.auth/${E2E_RUN}-admin.json`;
export { DEMO_ADMIN };

let counter = 0;
/** A fresh e-mail per call so tests never depend on each other's accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@e2e.test`;
}

/**
 * A browser of its own, signed in as `email` from its own pretend address: a session no other spec's sign-out,
 * password change or "sign out everywhere else" can end (the shared admin state is one session for the whole run).
 */
export async function ownSession(browser: Browser, email: string, password: string): Promise<BrowserContext> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
  const signedIn = await signInOverHttp(context.request, email, password);
  expect(signedIn.status(), "the sign-in redirects").toBe(302);
  expect(signedIn.headers().location ?? "", "the sign-in succeeded").not.toContain("error=");
  return context;
}

/** Signs in over HTTP the way the sign-in form's endpoint does; the context keeps the session cookie. */
export function signInOverHttp(ctx: APIRequestContext, email: string, password: string, headers: Record<string, string> = {}): Promise<APIResponse> {
  return signInWith(
    {
      getJson: async (path) => (await ctx.get(path, { headers })).json() as Promise<unknown>,
      postForm: (path, form) => ctx.post(path, { form, maxRedirects: 0, headers }),
    },
    email,
    password,
  );
}

export async function newSession(email: string, password: string): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": fakeAddress() },
  });
  const res = await signInOverHttp(ctx, email, password);
  const location = res.headers().location ?? "";
  expect(res.status(), "sign-in redirects").toBe(302);
  expect(location, "sign-in succeeded").not.toContain("error=");
  return ctx;
}

export async function createStaff(admin: APIRequestContext, role: Role, password = "correct-horse-battery") {
  const email = uniqueEmail(role);
  const res = await admin.post("/api/staff", {
    data: { email, name: `E2E ${role}`, role, password },
    headers: { Origin: BASE_URL },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { data: { id: string } };
  // The first sign-in: the person replaces the admin's password with their own (only then does the dashboard open).
  const person = await newSession(email, password);
  const own = `${password}-own`;
  const changed = await person.post("/api/me/password", { data: { currentPassword: password, newPassword: own }, headers: { Origin: BASE_URL } });
  expect(changed.status(), await changed.text()).toBe(200);
  // Signed out again, so the tests see only the sessions they open themselves.
  const { csrfToken } = (await (await person.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const out = await person.post("/api/auth/signout", { form: { csrfToken, callbackUrl: "/sign-in" }, maxRedirects: 0 });
  expect(out.status(), "the helper's session signs out").toBe(302);
  await person.dispose();
  return { id: body.data.id, email, password: own };
}

const control = sandboxControl(SANDBOX_URL);

/** The e2e sandbox's control API (no key): faults, stats, accept/decline as the consumer would. */
export const sandbox = {
  stats: control.calls,
  resetStats: control.resetStats,
  fault: control.fault,
  clearFaults: control.clearFaults,
  /** Waits (bounded) until no webhook is still being delivered and no auto-user request is pending. */
  async quiet(): Promise<void> {
    await waitFor(
      "the sandbox to settle (no webhook in flight, no auto-user request pending)",
      async () => {
        const [deliveries, requests] = await Promise.all([control.deliveries(), control.requests()]);
        const busy =
          deliveries.some((d) => d.outcome === "pending") ||
          requests.some((r) => r.request_status === "pending" && /^(accept|decline)(\.|$)/i.test(r.requested_sent_to.tag));
        return busy ? undefined : true;
      },
      20_000,
      100,
    );
  },
  act: (requestId: string, action: "accept" | "decline"): Promise<void> => control[action](requestId),
  /** Requests the sandbox holds for one tag: a test counts its own sends by its own tag, never by resetting shared counters. */
  async requestsTo(tag: string): Promise<number> {
    const wanted = tag.replace(/^@/, "").toLowerCase();
    return (await control.requests()).filter((r) => r.requested_sent_to.tag.toLowerCase() === wanted).length;
  },
};

/**
 * POST /api/requests, waiting out a refusal by Fundboard's own budget the way its message says ("try again in N s":
 * the Retry-After header), so a spec that sends many requests in a row is not failed by the specs before it having
 * spent the minute. Any other answer is returned as it is.
 */
export async function sendRequestWithinBudget(ctx: APIRequestContext, data: Record<string, unknown>): Promise<APIResponse> {
  for (;;) {
    const res = await ctx.post("/api/requests", { headers: { Origin: BASE_URL }, data });
    const wait = Number(res.headers()["retry-after"] ?? "0");
    if (res.status() !== 503 || !/keeping under the service's limit/.test(await res.text()) || !(wait > 0)) return res;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** A request sent to `tag` and accepted by that person in the sandbox's consumer app (its own page), as a payer would. */
export async function requestAcceptedInConsumerApp(
  request: APIRequestContext,
  consumer: Page,
  data: { tag: string; amount: string; description: string; idempotencyKey: string },
): Promise<string> {
  const made = await sendRequestWithinBudget(request, data);
  expect(made.status(), await made.text()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;
  await consumer.goto(`${SANDBOX_URL}/?tag=${encodeURIComponent(data.tag)}`);
  const accept = consumer.getByRole("button", { name: new RegExp(`^Accept request ${requestId},`) });
  await accept.click();
  await expect(accept).toHaveCount(0);
  return requestId;
}

export function uniqueTag(prefix = "e2e"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}`;
}

// Expected money texts are written here, not with the app's own formatter, so a formatting bug cannot agree with itself.

/** "1250.00" (naira, two decimals, as the API sends amounts) in kobo. */
export function koboOf(twoDecimals: string): bigint {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(twoDecimals);
  if (!m) throw new Error(`not a two-decimal amount: ${twoDecimals}`);
  const k = BigInt(`${m[2]}${m[3]}`);
  return m[1] ? -k : k;
}

/** Kobo as the dashboard shows naira: "NGN 1,250.00". */
export function nairaText(kobo: bigint): string {
  const digits = (kobo < 0n ? -kobo : kobo).toString().padStart(3, "0");
  return `NGN ${kobo < 0n ? "-" : ""}${digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${digits.slice(-2)}`;
}

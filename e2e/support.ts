import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";

import { DEMO_ADMIN } from "../lib/auth/demo";
import type { Role } from "../lib/auth/roles";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4110);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
export const SANDBOX_URL = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
export const ADMIN_STATE = "e2e/.auth/admin.json";
export { DEMO_ADMIN };

let counter = 0;
/** A fresh e-mail per call so tests never depend on each other's accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@e2e.test`;
}

/** Distinct pretend client addresses keep the per-address sign-in limit of one test from another's. */
export function fakeClientIp(): string {
  counter += 1;
  return `198.51.100.${(Date.now() + counter) % 250}`;
}

/** Signs in over HTTP the way the sign-in form's endpoint does; the context keeps the session cookie. */
export async function signInOverHttp(ctx: APIRequestContext, email: string, password: string, headers: Record<string, string> = {}) {
  const csrf = await ctx.get("/api/auth/csrf", { headers });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return ctx.post("/api/auth/callback/credentials", {
    form: { email, password, csrfToken, callbackUrl: "/" },
    maxRedirects: 0,
    headers,
  });
}

export async function newSession(email: string, password: string): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
  const res = await signInOverHttp(ctx, email, password);
  expect(res.status(), "sign-in redirects").toBe(302);
  expect(res.headers().location ?? "", "sign-in succeeded").not.toContain("error=");
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
  return { id: body.data.id, email, password };
}

/** The sandbox's control API (no key): faults, stats, accept/decline as the consumer would. */
export const sandbox = {
  async stats(): Promise<Record<string, number>> {
    const res = await fetch(`${SANDBOX_URL}/sandbox/stats`);
    return ((await res.json()) as { calls: Record<string, number> }).calls;
  },
  async resetStats(): Promise<void> {
    await fetch(`${SANDBOX_URL}/sandbox/stats/reset`, { method: "POST" });
  },
  async fault(path: string, mode: "500" | "429" | "timeout" | "malformed" | "slow", count?: number): Promise<void> {
    const res = await fetch(`${SANDBOX_URL}/sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, mode, ...(count === undefined ? {} : { count }) }),
    });
    if (!res.ok) throw new Error(`fault not set: ${res.status}`);
  },
  async clearFaults(): Promise<void> {
    await fetch(`${SANDBOX_URL}/sandbox/faults/clear`, { method: "POST" });
  },
  /** Waits (bounded) until no webhook is still being delivered and no auto-user request is pending. */
  async quiet(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const hooks = (await (await fetch(`${SANDBOX_URL}/sandbox/webhooks`)).json()) as { data: { deliveries: { outcome: string }[] } };
      const requests = (await (await fetch(`${SANDBOX_URL}/sandbox/requests`)).json()) as {
        data: { requests: { request_status: string; requested_sent_to: { tag: string } }[] };
      };
      const busy =
        hooks.data.deliveries.some((d) => d.outcome === "pending") ||
        requests.data.requests.some((r) => r.request_status === "pending" && r.requested_sent_to.tag.endsWith(".auto"));
      if (!busy) return;
      if (Date.now() > deadline) throw new Error("the sandbox did not settle within 20 s");
      await new Promise((r) => setTimeout(r, 100));
    }
  },
  async act(requestId: string, action: "accept" | "decline"): Promise<void> {
    const res = await fetch(`${SANDBOX_URL}/sandbox/requests/${requestId}/${action}`, { method: "POST" });
    if (!res.ok) throw new Error(`${action} failed: ${res.status} ${await res.text()}`);
  },
};

export function uniqueTag(prefix = "e2e"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}`;
}

// Issue 40: outgoing webhooks' first two retries against a real receiver, over HTTP against a real `next start` (its
// own job workers on the embedded database). An admin adds an endpoint at the sandbox's receiver answering 500 and
// sends a test event: the receiver records the first attempt, a retry about 5 s later and another about 1 min later,
// all with one webhook-id and each verified by the `standardwebhooks` verifier with the endpoint's secret
// (docs/architecture.md "Outgoing webhooks"). And a live deployment refuses an endpoint at a literal loopback address.
import { randomBytes } from "node:crypto";

import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { attemptJob } from "@/lib/outbound/attempt.job";
import { JITTER, RETRY_DELAYS_MS } from "@/lib/outbound/schedule";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { freePortRun } from "@/tests/support/ports";
import { signIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import { AUTH_SECRET, DEMO, HARDENING_KEY, REAL_ADMIN, freshDataDir, sandboxModeEnv, startDashboard, type Dashboard, type Envelope } from "./support";

const PORTS = {
  app: await freePortRun(),
  sandbox: await freePortRun(3),
  liveApp: await freePortRun(),
  service: await freePortRun(3),
};
/** The key the live deployment's "real service" (a sandbox on its own ports) issued. */
const LIVE_KEY = "sk_live_outbound_retries_0123456789abcdef";

/**
 * A retry is due at its start time but taken at its queue's next poll (the attempt workers poll every 2 s; only an
 * attempt queued to go at once wakes them), then signed and posted: the gap a receiver sees may be late by up to the
 * poll and a moment, and early by the few milliseconds the first attempt spent arriving.
 */
const POLL_MS = attemptJob.work.pollingIntervalSeconds * 1000;
const LATE_SLACK_MS = POLL_MS + 1_000;
const EARLY_SLACK_MS = 250;

interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
  status: number;
  at: string;
}

interface EndpointMade {
  id: string;
  url: string;
  secret: string;
}

let sandbox: Sandbox;
let service: Sandbox;
let app: Dashboard;
let live: Dashboard;
let admin: Session;
let liveAdmin: Session;
const data = freshDataDir("outbound-retries");
const liveData = freshDataDir("outbound-retries-live");

beforeAll(async () => {
  [sandbox, service] = await Promise.all([
    startSandbox({ port: PORTS.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} }),
    startSandbox({ port: PORTS.service, apiKey: LIVE_KEY, webhookRetryDelaysMs: [], log: () => {} }),
  ]);
  [app, live] = await Promise.all([
    startDashboard({ port: PORTS.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.sandbox) }),
    // Live mode: a real service configured (the second sandbox plays it), its first admin from ADMIN_EMAIL.
    startDashboard({
      port: PORTS.liveApp,
      dataDir: liveData.dir,
      env: {
        SERVICE_BASE_URL: service.apiUrl,
        SERVICE_VERIFY_BASE_URL: service.verifyUrl,
        SERVICE_API_KEY: LIVE_KEY,
        AUTH_SECRET,
        ADMIN_EMAIL: REAL_ADMIN.email,
        ADMIN_PASSWORD: REAL_ADMIN.password,
      },
    }),
  ]);
  [admin, liveAdmin] = await Promise.all([signIn(app.url, DEMO.email, DEMO.password), signIn(live.url, REAL_ADMIN.email, REAL_ADMIN.password)]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), live?.stop()]);
  await Promise.all([sandbox?.close(), service?.close()]);
  data.remove();
  liveData.remove();
});

const postJson = (session: Session, path: string, body: unknown) =>
  session.json<Envelope<unknown>>(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function received(name: string): Promise<ReceivedHook[]> {
  const res = await fetch(`${sandbox.apiUrl}/sandbox/hooks/${name}`);
  if (res.status !== 200) throw new Error(`GET /sandbox/hooks/${name} answered ${res.status}`);
  // Newest first on the wire; oldest first here.
  return ((await res.json()) as ReceivedHook[]).reverse();
}

function expectGap(from: ReceivedHook, to: ReceivedHook, baseMs: number): void {
  const gap = Date.parse(to.at) - Date.parse(from.at);
  console.log(`[hardening] outgoing webhook retry due after ${baseMs} ms ±${JITTER * 100}% arrived ${gap} ms after the attempt before it`);
  expect(gap, `a retry ${gap} ms after the attempt before it, on a schedule of ${baseMs} ms ±${JITTER * 100}%`).toBeGreaterThanOrEqual(
    baseMs * (1 - JITTER) - EARLY_SLACK_MS,
  );
  expect(gap, `a retry ${gap} ms after the attempt before it, on a schedule of ${baseMs} ms ±${JITTER * 100}%`).toBeLessThanOrEqual(
    baseMs * (1 + JITTER) + LATE_SLACK_MS,
  );
}

describe("issue 40: outgoing webhooks against a real receiver", () => {
  it("tries an endpoint answering 500 again after about 5 s and again about 1 min later, with one webhook-id, each verified", async () => {
    const name = `retries-${randomBytes(4).toString("hex")}`;
    const made = await admin.json<Envelope<EndpointMade>>("/api/webhook-endpoints", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: `${sandbox.apiUrl}/sandbox/hooks/${name}?status=500`, description: "Answers 500", eventTypes: "all" }),
    });
    expect(made.status, JSON.stringify(made.body).slice(0, 400)).toBe(201);
    const { id, secret } = made.body.data;
    expect(secret).toMatch(/^whsec_/);
    const sent = await postJson(admin, `/api/webhook-endpoints/${id}/test`, { type: "payment.received" });
    expect(sent.status, JSON.stringify(sent.body).slice(0, 400)).toBe(202);

    const [first, second, third] = await waitFor(
      "the first attempt and two retries at the receiver",
      async () => {
        const got = await received(name);
        return got.length >= 3 ? got : undefined;
      },
      // The first attempt goes at once; the two retries within 5.5 s and 66 s after it, each taken at the next poll.
      (RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1]) * (1 + JITTER) + 2 * LATE_SLACK_MS + 30_000,
      250,
    );
    if (!first || !second || !third) throw new Error("fewer than three attempts arrived");

    const verifier = new Webhook(secret);
    const events = [first, second, third].map((hook) => {
      expect(hook.status).toBe(500);
      return verifier.verify(hook.body, hook.headers) as { id: string; type: string; data: Record<string, unknown> };
    });
    const [event] = events;
    expect(event).toMatchObject({ type: "payment.received", data: { test: true } });
    for (const hook of [first, second, third]) expect(hook.headers["webhook-id"]).toBe(event?.id);
    // The same body each time; each attempt signs anew (its own timestamp).
    expect(new Set([first.body, second.body, third.body]).size).toBe(1);
    expect(Number(third.headers["webhook-timestamp"])).toBeGreaterThan(Number(first.headers["webhook-timestamp"]));

    expectGap(first, second, RETRY_DELAYS_MS[0]);
    expectGap(second, third, RETRY_DELAYS_MS[1]);
  });

  it("refuses, in live mode, an endpoint whose URL is a literal loopback address: 422 naming url, nothing made", async () => {
    for (const url of ["https://127.0.0.1/hooks", "https://[::1]/hooks", "https://2130706433/hooks", "https://0x7f.1/hooks"]) {
      const res = await liveAdmin.json<Envelope<{ fieldErrors: Record<string, string[]> }>>("/api/webhook-endpoints", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url, eventTypes: "all" }),
      });
      expect(res.status, `${url}: ${JSON.stringify(res.body).slice(0, 400)}`).toBe(422);
      expect(res.body).toMatchObject({ status: false, code: "validation_failed" });
      expect(res.body.data.fieldErrors.url?.[0], url).toMatch(/not allowed/);
    }
    const list = await liveAdmin.json<Envelope<{ total: number }>>("/api/webhook-endpoints");
    expect(list.status).toBe(200);
    expect(list.body.data.total).toBe(0);
    // The same deployment takes a public https URL (its addresses are checked at each attempt).
    const fine = await postJson(liveAdmin, "/api/webhook-endpoints", { url: "https://erp.example.com/hooks", eventTypes: "all" });
    expect(fine.status, JSON.stringify(fine.body).slice(0, 400)).toBe(201);
  });
});

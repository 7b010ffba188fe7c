// Issue 12 against one sandbox-mode `next start` of the hardening build, the way an attacker would try
// it from outside: forged X-Forwarded-For, many live streams from one session, a double submit, and
// forged addresses in the delivery log. TRUST_PROXY is left at its default (0).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { payload } from "@/tests/support/payloads";
import { sandboxControl as control } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { signIn, trySignIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import {
  DEMO,
  PORTS,
  HARDENING_KEY,
  freshDataDir,
  sandboxModeEnv,
  startDashboard,
  type Dashboard,
  type Envelope,
  type FundRequestView,
  type ListData,
} from "./support";

const LOOPBACK = /^(::1|::ffff:127\.0\.0\.1|127\.0\.0\.1)$/;

let sandbox: Sandbox;
let app: Dashboard;
let admin: Session;
const data = freshDataDir("review");

beforeAll(async () => {
  // "slow" holds a create for 1.5 s: long enough for a second submit to arrive while the first is out.
  sandbox = await startSandbox({
    port: PORTS.review.sandbox,
    apiKey: HARDENING_KEY,
    autoDelayMs: 200,
    webhookRetryDelaysMs: [],
    slowDelayMs: 1_500,
    log: () => {},
  });
  app = await startDashboard({ port: PORTS.review.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.review.sandbox) });
  admin = await signIn(app.url, DEMO.email, DEMO.password);
});

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  data.remove();
});

describe("a double submit", () => {
  it("never answers an unfinished record: the repeat waits for the first and gets the same final request", async () => {
    await control(sandbox.apiUrl).fault("/api/v1/transfer/request/peer", "slow", 1);
    const body = JSON.stringify({ tag: "double.submit", amount: "2500.00", description: "Dues", idempotencyKey: `dbl_${Date.now().toString(36)}` });
    const post = () => admin.json<Envelope<FundRequestView>>("/api/requests", { method: "POST", headers: { "content-type": "application/json" }, body });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    for (const a of answers) {
      expect(a.body.data.status).toBe("pending");
      expect(a.body.data.requestId).toMatch(/^\d+$/);
    }
    expect(answers[0]?.body.data.requestId).toBe(answers[1]?.body.data.requestId);
  });
});

describe("promises of issue 22: a repeat that cannot be the same request", () => {
  const send = (body: Record<string, unknown>) =>
    admin.json<Envelope<FundRequestView & { error: string | null }>>("/api/requests", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const sentTo = async (tag: string) => (await control(sandbox.apiUrl).requests()).filter((r) => r.requested_sent_to.tag === tag).length;

  it("repeating a send the service refused is 409 and asks nobody again", async () => {
    // The sandbox knows no user whose tag starts with "missing": it refuses the request.
    const tag = `missing.${Date.now().toString(36)}`;
    const body = { tag, amount: "300.00", description: "Dues", idempotencyKey: `refused_${Date.now().toString(36)}` };
    const first = await send(body);
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.status).toBeLessThan(600);
    expect(first.status).not.toBe(409);
    const again = await send(body);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already tried and failed/);
    expect(again.body.code).toBe("conflict");
    expect(again.body.data).toMatchObject({ tag, status: "failed" });
    const list = await admin.json<Envelope<ListData<FundRequestView>>>(`/api/requests?tag=${tag}`);
    expect(list.body.data.items.map((r) => r.status)).toEqual(["failed"]);
  });

  it("the same idempotency key with another tag, amount or description is 409 and sends nothing more", async () => {
    const tag = `key.reuse${Date.now().toString(36)}`;
    const base = { tag, amount: "400.00", description: "Dues", idempotencyKey: `reuse_${Date.now().toString(36)}` };
    expect((await send(base)).status).toBe(201);
    expect(await sentTo(tag)).toBe(1);
    for (const other of [{ amount: "401.00" }, { description: "Other dues" }, { tag: `${tag}x` }]) {
      const res = await send({ ...base, ...other });
      expect(res.status, JSON.stringify(other)).toBe(409);
      expect(res.body.message).toMatch(/already used for a different request/);
      expect(res.body.code).toBe("idempotency_key_reused");
    }
    // The same contents again are still the same request.
    expect((await send(base)).status).toBe(200);
    expect(await sentTo(tag)).toBe(1);
    expect(await sentTo(`${tag}x`)).toBe(0);
  });
});

describe("live streams", () => {
  it("one account keeps at most ten open however many times it signed in: the eleventh and twelfth close the oldest two", async () => {
    const streams: { reader: ReadableStreamDefaultReader<Uint8Array>; abort: AbortController }[] = [];
    // Three sign-ins of one account, four streams each: the cap is the account's, not each sign-in's.
    const sessions = [admin, await signIn(app.url, DEMO.email, DEMO.password), await signIn(app.url, DEMO.email, DEMO.password)];
    try {
      for (const session of sessions) {
        for (let i = 0; i < 4; i++) {
          const abort = new AbortController();
          const res = await session.fetch("/api/live", { signal: abort.signal });
          expect(res.status).toBe(200);
          const reader = res.body?.getReader();
          if (!reader) throw new Error("no stream body");
          // The first chunk ("connected") proves the stream is registered before the next one opens.
          expect((await reader.read()).done).toBe(false);
          streams.push({ reader, abort });
        }
      }
      // The server closed the first two streams: their readers end (a heartbeat would take 15 s).
      const closedWithin5s = (s: (typeof streams)[number]) =>
        Promise.race([
          (async () => {
            for (;;) if ((await s.reader.read()).done) return "closed";
          })(),
          new Promise<string>((resolve) => setTimeout(() => resolve("still open after 5 s"), 5_000)),
        ]);
      expect(await Promise.all(streams.slice(0, 2).map(closedWithin5s))).toEqual(["closed", "closed"]);
    } finally {
      for (const s of streams) s.abort.abort();
    }
  });
});

describe("sessions per account", () => {
  it("a twenty-first sign-in of one account ends its oldest session: that cookie's next request is 401", async () => {
    const email = `many.sessions.${Date.now().toString(36)}@hardening.test`;
    const password = "many-sessions-password-1";
    const created = await admin.json<Envelope<{ id: string }>>("/api/staff", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, name: "Many Sessions", role: "viewer", password }),
    });
    expect(created.status).toBe(201);
    const sessions: Session[] = [];
    for (let i = 0; i < 21; i++) sessions.push(await signIn(app.url, email, password));
    const status = async (s: Session | undefined) => (await (s ?? admin).fetch("/api/me")).status;
    expect(await status(sessions[0])).toBe(401);
    expect(await status(sessions[1])).toBe(200);
    expect(await status(sessions[20])).toBe(200);
    const listed = await (sessions[20] ?? admin).json<Envelope<{ items: unknown[] }>>("/api/me/sessions");
    expect(listed.body.data.items).toHaveLength(20);
  });
});

describe("client addresses with TRUST_PROXY=0", () => {
  it("the delivery log records the socket's address, not a forged X-Forwarded-For", async () => {
    const body = JSON.stringify(payload());
    const res = await fetch(`${app.url}/api/webhooks/peer-transfer`, {
      method: "POST",
      body,
      headers: {
        ...signedHeaders(body, HARDENING_KEY),
        "content-type": "text/plain",
        "x-forwarded-for": "6.6.6.6",
        "x-real-ip": "6.6.6.7",
        "x-fundboard-peer": "6.6.6.8",
      },
    });
    expect(res.status).toBe(415);
    const row = await waitFor(
      "the delivery-log row",
      async () => {
        const log = await admin.json<Envelope<ListData<{ outcome: string; remoteAddr: string | null }>>>("/api/webhook-events");
        return log.body.data.items.find((d) => d.outcome === "bad_content_type");
      },
      10_000,
      100,
    );
    expect(row.remoteAddr).toMatch(LOOPBACK);
  });

  // Last in this file: it locks one account from this dashboard's one client address for 15 minutes.
  it("rotating X-Forwarded-For buys no attempts: 5 failures of one account from one socket lock that account there", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      // A different forged address each time (TRUST_PROXY=0 ignores it): only the socket is the same.
      const attempt = await trySignIn(app.url, DEMO.email, `wrong-password-${i}`);
      outcomes.push(
        /code=throttled/.test(attempt.location) ? "throttled" : /error=/.test(attempt.location) ? "refused" : `other ${attempt.status} ${attempt.location}`,
      );
    }
    expect(outcomes).toEqual([...Array<string>(5).fill("refused"), ...Array<string>(3).fill("throttled")]);
    // The right password for that account from the locked socket is refused too, until the window passes.
    const locked = await trySignIn(app.url, DEMO.email, DEMO.password);
    expect(locked.ok).toBe(false);
    expect(locked.location).toMatch(/code=throttled/);
  });
});

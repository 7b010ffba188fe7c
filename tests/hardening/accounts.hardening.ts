// Issue 15 against one sandbox-mode `next start` of the hardening build, over HTTP only: two-step sign-in
// (enrolment, codes good once, wrong codes under the sign-in throttle, recovery codes), sessions that really
// end (password change, an admin's changes, sign-out, an open live stream) and the team's require2fa rule.
// TRUST_PROXY=1, so each sign-in's pretend address (X-Forwarded-For) keeps the per-address limit out of the
// way and the per-e-mail limit is the one under test.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import {
  chooseOwnPassword,
  fakeAddress,
  openSession as signedOutSession,
  signIn,
  signOut,
  trySignIn,
  type Session,
  type SignInResult,
} from "@/tests/support/sign-in";
import { SseClient } from "@/tests/support/sse-client";
import { TotpDevice } from "@/tests/support/totp-device";

import { DEMO, HARDENING_KEY, PORTS, freshDataDir, sandboxModeEnv, startDashboard, type Dashboard, type Envelope, type ListData } from "./support";

interface Me {
  id: string;
  email: string;
  role: string;
  sessionId: string;
  mustEnrol: boolean;
  twoStep: { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number };
}

interface SessionView {
  id: string;
  userAgent: string;
  ip: string;
  current: boolean;
}

interface Person {
  id: string;
  email: string;
  password: string;
}

interface Enrolled {
  device: TotpDevice;
  recoveryCodes: string[];
  /** The code that turned it on. */
  enablingCode: string;
}

const JSON_HEADERS = { "content-type": "application/json" };
/** The live stream's heartbeat is 15 s; one period plus the request's own time. */
const ONE_HEARTBEAT_MS = 20_000;

let sandbox: Sandbox;
let app: Dashboard;
let admin: Session;
let people = 0;
const data = freshDataDir("accounts");

beforeAll(async () => {
  sandbox = await startSandbox({ port: PORTS.accounts.sandbox, apiKey: HARDENING_KEY, autoDelayMs: 200, webhookRetryDelaysMs: [], log: () => {} });
  app = await startDashboard({ port: PORTS.accounts.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.accounts.sandbox, { TRUST_PROXY: "1" }) });
  admin = await signIn(app.url, DEMO.email, DEMO.password);
});

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  data.remove();
});

/** A new staff account made by the admin over the API. */
async function createPerson(role: "admin" | "operator" | "viewer" = "operator"): Promise<Person> {
  people += 1;
  const email = `p${people}.${Date.now().toString(36)}@accounts.test`;
  const password = `accounts-pass-${people}-${Math.random().toString(36).slice(2, 10)}`;
  const res = await admin.json<Envelope<{ id: string }>>("/api/staff", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, name: `Accounts ${people}`, role, password }),
  });
  if (res.status !== 201) throw new Error(`POST /api/staff answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return { id: res.body.data.id, email, password: await chooseOwnPassword(app.url, email, password) };
}

/** The status of a request, its body read and dropped. */
async function statusOf(session: Session, path: string, init?: RequestInit): Promise<number> {
  const res = await session.fetch(path, init);
  await res.arrayBuffer();
  return res.status;
}

async function me(session: Session): Promise<Me> {
  const res = await session.json<Envelope<Me>>("/api/me");
  if (res.status !== 200) throw new Error(`GET /api/me answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.data;
}

function post(session: Session, path: string, body: unknown = {}) {
  return session.json<Envelope<unknown>>(path, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
}

/** Two-step sign-in set up over the API by a signed-in person: set-up, then enable with the app's code (the password with each). */
async function enrol(session: Session, password: string): Promise<Enrolled> {
  const setup = (await post(session, "/api/me/2fa/setup", { password })) as { status: number; body: Envelope<{ secret: string }> };
  if (setup.status !== 200) throw new Error(`set-up answered ${setup.status}: ${JSON.stringify(setup.body).slice(0, 300)}`);
  const device = new TotpDevice(setup.body.data.secret);
  const enablingCode = await device.nextCode();
  const enabled = await session.json<Envelope<{ recoveryCodes: string[] }>>("/api/me/2fa/enable", {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify({ password, code: enablingCode }),
  });
  if (enabled.status !== 200) throw new Error(`enable answered ${enabled.status}: ${JSON.stringify(enabled.body).slice(0, 300)}`);
  return { device, recoveryCodes: enabled.body.data.recoveryCodes, enablingCode };
}

/** The `code` of a refused sign-in's redirect (?error=CredentialsSignin&code=…), or null. */
function refusalCode(result: SignInResult): string | null {
  return result.location ? new URL(result.location, app.url).searchParams.get("code") : null;
}

function expectRefused(result: SignInResult, code: string | RegExp): void {
  expect(result.ok).toBe(false);
  expect(result.status).toBe(302);
  if (typeof code === "string") expect(refusalCode(result)).toBe(code);
  else expect(refusalCode(result) ?? "").toMatch(code);
  expect(result.session.hasCookie(/session-token/)).toBe(false);
}

/** Where a page request was sent (a redirect's path), or its status when it was not redirected; `cookie` replaces the session's. */
async function pageOutcome(session: Session, path: string, cookie?: string): Promise<string> {
  const res = await session.fetch(path, { headers: { accept: "text/html", ...(cookie === undefined ? {} : { cookie }) } });
  const html = await res.text();
  const location = res.headers.get("location");
  if (res.status >= 300 && res.status < 400 && location) return new URL(location, app.url).pathname;
  // A redirect thrown after streaming began arrives as a refresh in the page.
  const meta = /<meta[^>]+http-equiv="refresh"[^>]+content="\d+;\s*url=([^"]+)"/i.exec(html);
  if (meta?.[1]) return new URL(meta[1].replace(/&amp;/g, "&"), app.url).pathname;
  return `HTTP ${res.status}`;
}

describe("two-step sign-in", () => {
  it("enrols over the API; then the password alone asks for the code, a wrong code is refused, the right one signs in once", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);

    // A stolen session alone cannot start it: the password is required, and a wrong one counts like a sign-in failure.
    expect((await post(s, "/api/me/2fa/setup")).status).toBe(422);
    expect((await post(s, "/api/me/2fa/setup", { password: "not-the-password" })).status).toBe(422);
    const setup = await s.json<Envelope<{ secret: string; otpauthUrl: string; qrSvg: string }>>("/api/me/2fa/setup", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ password: p.password }),
    });
    expect(setup.status).toBe(200);
    expect(setup.headers.get("cache-control")).toContain("no-store");
    expect(setup.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.body.data.otpauthUrl);
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(setup.body.data.secret);
    expect(url.searchParams.get("issuer")).toBe("Fundboard");
    expect(setup.body.data.qrSvg).toMatch(/^<svg/);
    const device = new TotpDevice(setup.body.data.secret);

    // A wrong first code turns nothing on.
    // Nor finish it: enable without the password, or with a wrong one, turns nothing on.
    expect((await post(s, "/api/me/2fa/enable", { code: await device.nextCode() })).status).toBe(422);
    expect((await post(s, "/api/me/2fa/enable", { password: "not-the-password", code: await device.nextCode() })).status).toBe(422);
    expect((await me(s)).twoStep.enabled).toBe(false);
    expect((await post(s, "/api/me/2fa/enable", { password: p.password, code: device.wrongCode() })).status).toBe(422);
    expect((await me(s)).twoStep.enabled).toBe(false);
    const enablingCode = await device.nextCode();
    const enabled = await s.json<Envelope<{ recoveryCodes: string[] }>>("/api/me/2fa/enable", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ password: p.password, code: enablingCode }),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.headers.get("cache-control")).toContain("no-store");
    expect(enabled.body.data.recoveryCodes).toHaveLength(10);
    expect((await me(s)).twoStep).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // On already: a new set-up is refused.
    expect((await post(s, "/api/me/2fa/setup", { password: p.password })).status).toBe(409);

    expect((await signOut(s)).status).toBe(302);

    expectRefused(await trySignIn(app.url, p.email, p.password), "code-required");
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: device.wrongCode() }), "bad-code");
    // The code that turned it on was used then: it cannot sign in.
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: enablingCode }), "bad-code");
    // A wrong password with a right code is the plain refusal, and does not use the code up.
    const code = await device.nextCode();
    expectRefused(await trySignIn(app.url, p.email, "not-the-password-at-all", { code }), "invalid");

    const signedIn = await trySignIn(app.url, p.email, p.password, { code });
    expect(signedIn.ok).toBe(true);
    expect(await me(signedIn.session)).toMatchObject({ email: p.email, twoStep: { enabled: true } });

    // The same code again, in a new sign-in: refused (replay).
    expectRefused(await trySignIn(app.url, p.email, p.password, { code }), "bad-code");
  });

  it("5 wrong codes lock the account like 5 wrong passwords: the 6th attempt is throttled even with the right code", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const { device } = await enrol(s, p.password);
    // From one address: 5 failures of one account from one address lock it there (lib/auth/throttle.ts).
    const address = fakeAddress();
    for (let i = 0; i < 5; i++) expectRefused(await trySignIn(app.url, p.email, p.password, { code: device.wrongCode(), address }), "bad-code");
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: await device.nextCode(), address }), /^throttled-\d+$/);

    // The same as five wrong passwords on an account without two-step sign-in.
    const q = await createPerson();
    for (let i = 0; i < 5; i++) expectRefused(await trySignIn(app.url, q.email, `wrong-password-${i}`, { address }), "invalid");
    expectRefused(await trySignIn(app.url, q.email, q.password, { address }), /^throttled-\d+$/);
  });

  it("a recovery code signs in once, however it is typed; its second use is refused", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const { recoveryCodes } = await enrol(s, p.password);
    const [first, second] = recoveryCodes;
    if (!first || !second) throw new Error("too few recovery codes");

    const once = await trySignIn(app.url, p.email, p.password, { code: first });
    expect(once.ok).toBe(true);
    expect((await me(once.session)).twoStep.recoveryCodesLeft).toBe(9);
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: first }), "bad-code");
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: first.toUpperCase().replace("-", " ") }), "bad-code");

    const typed = await trySignIn(app.url, p.email, p.password, { code: ` ${second.toUpperCase()} ` });
    expect(typed.ok).toBe(true);
    expect((await me(typed.session)).twoStep.recoveryCodesLeft).toBe(8);
  });

  it("new recovery codes need the password and a code, and void every old one", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const none = await post(s, "/api/me/2fa/recovery-codes", { password: p.password, code: "123456" });
    expect(none.status, "two-step sign-in is not on yet").toBe(409);
    const { device, recoveryCodes } = await enrol(s, p.password);
    const [used, old, another] = recoveryCodes;
    if (!used || !old || !another) throw new Error("too few recovery codes");
    expect((await trySignIn(app.url, p.email, p.password, { code: used })).ok).toBe(true);
    expect((await me(s)).twoStep.recoveryCodesLeft).toBe(9);

    const wrongPassword = await post(s, "/api/me/2fa/recovery-codes", { password: "not-the-password", code: await device.nextCode() });
    expect(wrongPassword.status).toBe(422);
    expect(await post(s, "/api/me/2fa/recovery-codes", { password: p.password })).toMatchObject({ status: 422 });
    expect((await me(s)).twoStep.recoveryCodesLeft, "nothing changed").toBe(9);

    const renewed = await s.json<Envelope<{ recoveryCodes: string[] }>>("/api/me/2fa/recovery-codes", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ password: p.password, code: old }),
    });
    expect(renewed.status, JSON.stringify(renewed.body).slice(0, 300)).toBe(200);
    expect(renewed.headers.get("cache-control")).toContain("no-store");
    const codes = renewed.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(codes.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    expect((await me(s)).twoStep.recoveryCodesLeft).toBe(10);
    expectRefused(await trySignIn(app.url, p.email, p.password, { code: another }), "bad-code");
    const fresh = await trySignIn(app.url, p.email, p.password, { code: codes[0] ?? "" });
    expect(fresh.ok).toBe(true);
    expect((await me(fresh.session)).twoStep.recoveryCodesLeft).toBe(9);
  });
});

describe("sessions end for real", () => {
  it("a password change ends the person's other sessions: B's next API request is 401, its pages go to sign-in; A works on", async () => {
    const p = await createPerson();
    const a = await signIn(app.url, p.email, p.password);
    const b = await signIn(app.url, p.email, p.password);
    expect(await pageOutcome(b, "/requests")).toBe("HTTP 200");
    const listed = await a.json<Envelope<ListData<SessionView>>>("/api/me/sessions");
    expect(listed.body.data.items).toHaveLength(2);
    expect(listed.body.data.items.filter((i) => i.current).map((i) => i.id)).toEqual([(await me(a)).sessionId]);

    const newPassword = `${p.password}-changed`;
    const changed = await post(a, "/api/me/password", { currentPassword: p.password, newPassword });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ otherSessionsEnded: 1 });

    expect(await statusOf(b, "/api/me")).toBe(401);
    expect(await statusOf(b, "/api/requests")).toBe(401);
    expect(await pageOutcome(b, "/requests")).toBe("/sign-in");
    expect(await statusOf(a, "/api/me")).toBe(200);
    expect((await a.json<Envelope<ListData<SessionView>>>("/api/me/sessions")).body.data.items.map((i) => i.current)).toEqual([true]);

    expectRefused(await trySignIn(app.url, p.email, p.password), "invalid");
    expect((await trySignIn(app.url, p.email, newPassword)).ok).toBe(true);
  });

  it("a wrong current password changes nothing and ends no session", async () => {
    const p = await createPerson();
    const a = await signIn(app.url, p.email, p.password);
    const b = await signIn(app.url, p.email, p.password);
    const refused = await post(a, "/api/me/password", { currentPassword: "not-my-password", newPassword: "a-new-password-123" });
    expect(refused.status).toBe(422);
    expect(await statusOf(b, "/api/me")).toBe(200);
    expect((await trySignIn(app.url, p.email, p.password)).ok).toBe(true);
  });

  it("an admin's role change ends all of that person's sessions", async () => {
    const p = await createPerson("operator");
    const sessions = [await signIn(app.url, p.email, p.password), await signIn(app.url, p.email, p.password)];
    const res = await admin.json<Envelope<{ role: string }>>(`/api/staff/${p.id}`, {
      method: "PATCH",
      headers: JSON_HEADERS,
      body: JSON.stringify({ role: "viewer" }),
    });
    expect(res.status).toBe(200);
    for (const s of sessions) expect(await statusOf(s, "/api/me")).toBe(401);
    expect((await me(await signIn(app.url, p.email, p.password))).role).toBe("viewer");
    // The admin's own session is untouched.
    expect(await statusOf(admin, "/api/me")).toBe(200);
  });

  it("an admin's disable ends all of that person's sessions: enabled again, the old ones stay ended", async () => {
    const p = await createPerson();
    const sessions = [await signIn(app.url, p.email, p.password), await signIn(app.url, p.email, p.password)];
    const patch = (disabled: boolean) =>
      admin.json<Envelope<unknown>>(`/api/staff/${p.id}`, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ disabled }) });
    expect((await patch(true)).status).toBe(200);
    for (const s of sessions) expect(await statusOf(s, "/api/me")).toBe(401);
    expect((await patch(false)).status).toBe(200);
    for (const s of sessions) expect(await statusOf(s, "/api/me")).toBe(401);
    expect(await statusOf(await signIn(app.url, p.email, p.password), "/api/me")).toBe(200);
  });

  it("an admin's reset-2fa ends all of that person's sessions; the password alone signs in afterwards", async () => {
    const p = await createPerson();
    const enrolling = await signIn(app.url, p.email, p.password);
    const { recoveryCodes } = await enrol(enrolling, p.password);
    const second = await trySignIn(app.url, p.email, p.password, { code: recoveryCodes[0] ?? "" });
    expect(second.ok).toBe(true);
    const sessions = [enrolling, second.session];
    for (const s of sessions) expect(await statusOf(s, "/api/me")).toBe(200);

    const reset = await post(admin, `/api/staff/${p.id}/reset-2fa`);
    expect(reset.status).toBe(200);
    for (const s of sessions) expect(await statusOf(s, "/api/me")).toBe(401);
    // Nothing left to reset.
    expect((await post(admin, `/api/staff/${p.id}/reset-2fa`)).status).toBe(409);

    const fresh = await trySignIn(app.url, p.email, p.password);
    expect(fresh.ok).toBe(true);
    expect((await me(fresh.session)).twoStep).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 });
  });

  it("DELETE /api/me/sessions/:id of another person's session is 404 and leaves it open; one's own other session ends", async () => {
    const x = await createPerson();
    const y = await createPerson();
    const xa = await signIn(app.url, x.email, x.password);
    const xb = await signIn(app.url, x.email, x.password);
    const ys = await signIn(app.url, y.email, y.password);
    const theirs = (await me(ys)).sessionId;

    expect(await statusOf(xa, `/api/me/sessions/${theirs}`, { method: "DELETE" })).toBe(404);
    expect(await statusOf(xa, "/api/me/sessions/not-a-session-id", { method: "DELETE" })).toBe(404);
    expect(await statusOf(ys, "/api/me")).toBe(200);

    const mine = (await me(xb)).sessionId;
    expect(await statusOf(xa, `/api/me/sessions/${mine}`, { method: "DELETE" })).toBe(200);
    expect(await statusOf(xb, "/api/me")).toBe(401);
    expect(await statusOf(xa, "/api/me")).toBe(200);
    // Ended already: not found the second time.
    expect(await statusOf(xa, `/api/me/sessions/${mine}`, { method: "DELETE" })).toBe(404);
  });

  it("sign-out ends the session itself: a saved copy of the cookie is refused afterwards", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const other = await signIn(app.url, p.email, p.password);
    const saved = s.cookie();
    expect(saved).toMatch(/session-token=/);
    expect(await statusOf(s, "/api/me")).toBe(200);

    const out = await signOut(s);
    expect(out.status).toBe(302);
    expect(s.hasCookie(/session-token/)).toBe(false);
    expect(await statusOf(s, "/api/me", { headers: { cookie: saved } })).toBe(401);
    expect(await pageOutcome(s, "/requests", saved)).toBe("/sign-in");
    // next-auth's own session read says "no session" too, and issues no fresh cookie.
    const sessionRead = await s.fetch("/api/auth/session", { headers: { cookie: saved } });
    expect(await sessionRead.json()).toBeNull();
    expect(sessionRead.headers.get("set-cookie") ?? "").not.toMatch(/session-token=[^;]/);
    // Only that session: the person's other one goes on.
    expect(await statusOf(other, "/api/me")).toBe(200);
  });

  it("an open /api/live stream of a session that is ended closes within one heartbeat", async () => {
    const p = await createPerson();
    const a = await signIn(app.url, p.email, p.password);
    const b = await signIn(app.url, p.email, p.password);
    const bLive = await SseClient.open(b);
    const aLive = await SseClient.open(a);
    try {
      expect(aLive.open).toBe(true);
      const aId = (await me(a)).sessionId;
      expect(await statusOf(b, `/api/me/sessions/${aId}`, { method: "DELETE" })).toBe(200);
      const started = Date.now();
      expect(await aLive.ended(ONE_HEARTBEAT_MS + 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThanOrEqual(ONE_HEARTBEAT_MS);
      // The session that was not ended keeps its stream.
      expect(bLive.open).toBe(true);
      expect(await statusOf(b, "/api/me")).toBe(200);
    } finally {
      await aLive.close();
      await bLive.close();
    }
  });
});

/** The audit rows of one /audit page (each row's HTML), as an admin sees them. */
async function auditRows(query: string): Promise<string[]> {
  const html = await (await admin.fetch(`/audit?${query}`)).text();
  return html
    .split('data-testid="audit-row"')
    .slice(1)
    .map((row) => row.slice(0, row.indexOf("</tr>")));
}

describe("promises of issue 22", () => {
  it("an open /api/live stream of a person an admin disables closes within one heartbeat", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const live = await SseClient.open(s);
    const adminLive = await SseClient.open(admin);
    try {
      expect(live.open).toBe(true);
      const res = await admin.json<Envelope<unknown>>(`/api/staff/${p.id}`, {
        method: "PATCH",
        headers: JSON_HEADERS,
        body: JSON.stringify({ disabled: true }),
      });
      expect(res.status).toBe(200);
      const started = Date.now();
      expect(await live.ended(ONE_HEARTBEAT_MS + 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThanOrEqual(ONE_HEARTBEAT_MS);
      expect(adminLive.open).toBe(true);
    } finally {
      await live.close();
      await adminLive.close();
    }
  });

  it("a disabled account's sign-in gets the wrong-password message; the audit log, filtered by person, records the real reason", async () => {
    const p = await createPerson();
    const q = await createPerson();
    expectRefused(await trySignIn(app.url, p.email, "not-the-password"), "invalid");
    expectRefused(await trySignIn(app.url, q.email, "not-the-password"), "invalid");
    const res = await admin.json<Envelope<unknown>>(`/api/staff/${p.id}`, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ disabled: true }) });
    expect(res.status).toBe(200);
    // The right password of a disabled account: the same refusal as a wrong one, so the page tells nobody the account exists.
    expectRefused(await trySignIn(app.url, p.email, p.password), "invalid");

    const rows = await auditRows(`person=${encodeURIComponent(p.email)}&action=auth.sign_in_failed`);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toContain(p.email);
      expect(row).not.toContain(q.email);
    }
    // Newest first: the disabled account's refusal, then the wrong password before it.
    expect(rows[0]).toContain("Sign-in refused: account disabled");
    expect(rows[1]).toContain("Sign-in refused: wrong password");
    expect(await auditRows(`person=${encodeURIComponent(q.email)}&action=auth.sign_in_failed`)).toHaveLength(1);
  });

  it("the account page warns when two or fewer recovery codes are left, not before", async () => {
    const WARNING = "You are running out of recovery codes";
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const { recoveryCodes } = await enrol(s, p.password);
    const accountPage = async () => (await s.fetch("/account", { headers: { accept: "text/html" } })).text();
    expect(await accountPage()).not.toContain(WARNING);
    // Each sign-in with a recovery code spends it.
    for (const code of recoveryCodes.slice(0, 7)) expect((await trySignIn(app.url, p.email, p.password, { code })).ok).toBe(true);
    expect((await me(s)).twoStep.recoveryCodesLeft).toBe(3);
    expect(await accountPage()).not.toContain(WARNING);
    expect((await trySignIn(app.url, p.email, p.password, { code: recoveryCodes[7] ?? "" })).ok).toBe(true);
    expect((await me(s)).twoStep.recoveryCodesLeft).toBe(2);
    expect(await accountPage()).toContain(WARNING);
  });

  it("a cookie whose session is gone (or names none, from before sessions were rows) is signed out once, without a loop", async () => {
    const p = await createPerson();
    const secret = readFileSync(path.join(data.dir, "auth-secret"), "utf8").trim();
    const salt = "authjs.session-token";
    const cookieOf = async (token: Record<string, string>) => `${salt}=${await encode({ secret, salt, token: { email: p.email, name: "Old", ...token } })}`;
    const cookies = {
      gone: await cookieOf({ sub: p.id, sid: "00000000-0000-4000-8000-000000000000" }),
      none: await cookieOf({ sub: p.id }),
    };
    const visitor = signedOutSession(app.url);
    for (const [what, cookie] of Object.entries(cookies)) {
      expect(await statusOf(visitor, "/api/me", { headers: { cookie } }), what).toBe(401);
      expect(await pageOutcome(visitor, "/requests", cookie), what).toBe("/sign-in");
      // The sign-in page shows its form to that cookie rather than sending it back to the dashboard.
      expect(await pageOutcome(visitor, "/sign-in?callbackUrl=%2Frequests", cookie), what).toBe("HTTP 200");
    }
    // The person signs in afresh as usual.
    expect(await statusOf(await signIn(app.url, p.email, p.password), "/api/me")).toBe(200);
  });
});

/**
 * A PATCH /api/staff/:id whose headers go now and whose JSON body goes when `send` is called: the route checks the
 * session on the headers and reads the body after, so the request is under way, signed in, before the body exists.
 */
function heldPatch(session: Session, id: string): { send(body: unknown): Promise<{ status: number; body: Envelope<unknown> }> } {
  const target = new URL(`/api/staff/${id}`, app.url);
  let answer: (res: http.IncomingMessage) => void = () => undefined;
  const answered = new Promise<http.IncomingMessage>((resolve) => (answer = resolve));
  const req = http.request(target, {
    method: "PATCH",
    headers: {
      cookie: session.cookie(),
      origin: app.url,
      "x-forwarded-for": session.address,
      "content-type": "application/json",
      "transfer-encoding": "chunked",
    },
  });
  req.on("response", answer);
  req.flushHeaders();
  return {
    async send(body) {
      req.end(JSON.stringify(body));
      const res = await answered;
      let text = "";
      for await (const chunk of res) text += String(chunk);
      return { status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope<unknown> };
    },
  };
}

describe("promises of issue 22: admins and the audit log", () => {
  const patch = (session: Session, id: string, body: Record<string, unknown>) =>
    session.json<Envelope<unknown>>(`/api/staff/${id}`, { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify(body) });

  it("an admin cannot demote or disable themselves (409); of two admins demoting each other at once, the last admin's change is 409", async () => {
    const x = await createPerson("admin");
    const y = await createPerson("admin");
    const sx = await signIn(app.url, x.email, x.password);
    const sy = await signIn(app.url, y.email, y.password);

    for (const change of [{ role: "operator" }, { role: "viewer" }, { disabled: true }]) {
      const own = await patch(sx, x.id, change);
      expect(own.status, JSON.stringify(change)).toBe(409);
      expect(own.body.message).toMatch(/cannot disable or demote your own account/);
    }
    expect((await me(sx)).role).toBe("admin");

    // Only x and y left as active admins: every other admin is made an operator, the demo admin disabled (by x).
    const staffList = await admin.json<Envelope<ListData<{ id: string; email: string; role: string; disabled: boolean }>>>("/api/staff");
    expect(staffList.status).toBe(200);
    const demo = staffList.body.data.items.find((p) => p.email === DEMO.email);
    if (!demo) throw new Error("the demo admin is not in the staff list");
    for (const other of staffList.body.data.items) {
      if (other.role === "admin" && !other.disabled && ![x.id, y.id, demo.id].includes(other.id)) {
        expect((await patch(admin, other.id, { role: "operator" })).status).toBe(200);
      }
    }
    expect((await patch(sx, demo.id, { disabled: true })).status).toBe(200);
    try {
      // y's disable of x is under way (signed in, its body not yet sent) when x's demotion of y lands: y's change now
      // finds x the last active admin. (Sent whole, the same race answers 401 when y's session has already ended.)
      const held = heldPatch(sy, x.id);
      // y's session check was queued first on the embedded database's one connection: it has run once a later
      // request of the same session is answered.
      expect(await statusOf(sy, "/api/me")).toBe(200);
      expect((await patch(sx, y.id, { role: "operator" })).status).toBe(200);
      const refused = await held.send({ disabled: true });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toMatch(/last active admin/);
      expect((await me(sx)).role).toBe("admin");
    } finally {
      // Whoever is still an active admin brings the demo admin back, and the file's admin session with it (without
      // an assertion here, so a failure above is the one reported).
      let restored = false;
      for (const s of [sx, sy]) if (!restored) restored = (await patch(s, demo.id, { disabled: false })).status === 200;
      if (restored) admin = await signIn(app.url, DEMO.email, DEMO.password);
    }
  });

  it("every two-step change and every campaign action writes an audit row naming who did it", async () => {
    const p = await createPerson();
    const s = await signIn(app.url, p.email, p.password);
    const rowsOf = async (action: string) => auditRows(`person=${encodeURIComponent(p.email)}&action=${action}`);

    // Set-up, enable, new recovery codes, disable, and a second set-up: one row each, by the person.
    const { device } = await enrol(s, p.password);
    expect((await post(s, "/api/me/2fa/recovery-codes", { password: p.password, code: await device.nextCode() })).status).toBe(200);
    expect((await post(s, "/api/me/2fa/disable", { password: p.password, code: await device.nextCode() })).status).toBe(200);
    const again = await enrol(s, p.password);
    const counted = {
      "account.two_step_setup_started": (await rowsOf("account.two_step_setup_started")).length,
      "account.two_step_enabled": (await rowsOf("account.two_step_enabled")).length,
      "account.recovery_codes_renewed": (await rowsOf("account.recovery_codes_renewed")).length,
      "account.two_step_disabled": (await rowsOf("account.two_step_disabled")).length,
    };
    expect(counted).toEqual({
      "account.two_step_setup_started": 2,
      "account.two_step_enabled": 2,
      "account.recovery_codes_renewed": 1,
      "account.two_step_disabled": 1,
    });
    // An admin's reset of it: a row by the admin naming the person.
    expect((await post(admin, `/api/staff/${p.id}/reset-2fa`)).status).toBe(200);
    const resets = await auditRows(`person=${encodeURIComponent(DEMO.email)}&action=staff.two_step_reset`);
    expect(resets.filter((r) => r.includes(p.email))).toHaveLength(1);
    expect(again.recoveryCodes).toHaveLength(10);

    // A campaign's upload, start, pause, resume and cancel by an operator: one row each, naming the campaign.
    const op = await createPerson("operator");
    const so = await signIn(app.url, op.email, op.password);
    const name = `Audited ${Date.now().toString(36)}`;
    const form = new FormData();
    form.set("name", name);
    // Thirty rows: more than the background budget sends in a burst, so the campaign is still sending when paused.
    const lines = Array.from({ length: 30 }, (_, i) => `audit.${Date.now().toString(36)}${i},${i + 1},Dues`);
    form.set("file", new Blob([`tag,amount,description\n${lines.join("\n")}\n`], { type: "text/csv" }), "rows.csv");
    const uploaded = await so.json<Envelope<{ id: string }>>("/api/campaigns", { method: "POST", body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body).slice(0, 300)).toBe(201);
    const id = uploaded.body.data.id;
    for (const action of ["start", "pause", "resume", "cancel"]) {
      const res = await so.json<Envelope<{ status: string }>>(`/api/campaigns/${id}/${action}`, { method: "POST" });
      expect(res.status, `${action}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
    }
    const campaignRows: Record<string, number> = {};
    for (const action of ["campaign.uploaded", "campaign.started", "campaign.paused", "campaign.resumed", "campaign.cancelled"]) {
      campaignRows[action] = (await auditRows(`person=${encodeURIComponent(op.email)}&action=${action}`)).filter((r) => r.includes(name)).length;
    }
    expect(campaignRows).toEqual({ "campaign.uploaded": 1, "campaign.started": 1, "campaign.paused": 1, "campaign.resumed": 1, "campaign.cancelled": 1 });
  });
});

describe("the team requires two-step sign-in", () => {
  it("a person without it may only reach their account and its set-up until they have it", async () => {
    // The admin making the change has two-step sign-in, so the rule does not stop them.
    const owner = await createPerson("admin");
    const ownerSession = await signIn(app.url, owner.email, owner.password);
    await enrol(ownerSession, owner.password);
    const p = await createPerson("viewer");
    const before = await signIn(app.url, p.email, p.password);
    expect(await statusOf(before, "/api/balance")).toBe(200);
    // Only an admin changes it.
    expect(await statusOf(before, "/api/settings", { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ require2fa: true }) })).toBe(403);

    const setRequired = (on: boolean) =>
      ownerSession.json<Envelope<{ require2fa: boolean }>>("/api/settings", {
        method: "PATCH",
        headers: JSON_HEADERS,
        body: JSON.stringify({ require2fa: on }),
      });
    const on = await setRequired(true);
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ require2fa: true });
    try {
      // A session from before the change, and a sign-in after it (the password alone still signs in).
      const after = await trySignIn(app.url, p.email, p.password);
      expect(after.ok).toBe(true);
      for (const s of [before, after.session]) {
        expect(await statusOf(s, "/api/balance")).toBe(403);
        expect(await statusOf(s, "/api/requests")).toBe(403);
        expect(await statusOf(s, "/api/live")).toBe(403);
        const mine = await me(s);
        expect(mine).toMatchObject({ mustEnrol: true, twoStep: { enabled: false } });
        expect(await statusOf(s, "/api/me/sessions")).toBe(200);
      }
      // Pages take them to the account page to set it up.
      expect(await pageOutcome(before, "/requests")).toBe("/account");
      // So does the rule stop an admin without two-step sign-in.
      expect(await statusOf(admin, "/api/settings")).toBe(403);
      expect(await statusOf(ownerSession, "/api/balance")).toBe(200);

      const setup = await post(before, "/api/me/2fa/setup", { password: p.password });
      expect(setup.status).toBe(200);
      const device = new TotpDevice((setup.body.data as { secret: string }).secret);
      expect((await post(before, "/api/me/2fa/enable", { password: p.password, code: await device.nextCode() })).status).toBe(200);
      expect((await me(before)).mustEnrol).toBe(false);
      expect(await statusOf(before, "/api/balance")).toBe(200);
      // With it on, turning it off is refused while the team requires it.
      expect((await post(before, "/api/me/2fa/disable", { password: p.password, code: await device.nextCode() })).status).toBe(409);
    } finally {
      const off = await setRequired(false);
      expect(off.status).toBe(200);
      expect(off.body.data).toMatchObject({ require2fa: false });
    }
    expect(await statusOf(admin, "/api/settings")).toBe(200);
  });
});

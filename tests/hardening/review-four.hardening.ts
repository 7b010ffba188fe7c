// Issue 37's security items 2, 3, 4, 7 and 8 over HTTP against a real sandbox-mode `next start` of the hardening
// build, each the way the fourth review tried it live (item 1 is in limits.hardening.ts, 5 in export-cap, 6 in
// plan-page): a hand link of a payment that is not the request's, a flood of spellings of one time zone, a plan
// starting in 2999, a run of a back period, and ADMIN_RESET left set across a restart.
import { randomUUID } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { isErrorCode } from "@/lib/client/http/error-codes";
import type { ExceptionKind, ExceptionView } from "@/lib/client/exceptions/view";
import type { PlanListItem, PlanView } from "@/lib/client/plans/view";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { payload } from "@/tests/support/payloads";
import { freePortRun } from "@/tests/support/ports";
import { treeRssBytes } from "@/tests/support/process-memory";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { fakeAddress, signIn, trySignIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import {
  DEMO,
  HARDENING_KEY,
  REAL_ADMIN,
  createRequest,
  freshDataDir,
  sandboxModeEnv,
  startDashboard,
  type Dashboard,
  type Envelope,
  type FundRequestView,
  type ListData,
} from "./support";

const PORTS = { app: await freePortRun(), adminApp: await freePortRun(), sandbox: await freePortRun(3) } as const;

let sandbox: Sandbox;
let app: Dashboard;
let admin: Session;
const data = freshDataDir("review-four");
const stamp = Date.now().toString(36);

beforeAll(async () => {
  sandbox = await startSandbox({ port: PORTS.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} });
  app = await startDashboard({ port: PORTS.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.sandbox) });
  admin = await signIn(app.url, DEMO.email, DEMO.password);
});

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  data.remove();
});

/** An error answer as docs/architecture.md "Error codes" has it: a 4xx, the envelope, and a code from the closed list. */
function expectRefusal(answer: { status: number; body: Envelope }, what: string): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, what).toBeLessThan(500);
  expect(answer.body, what).toMatchObject({ status: false, message: expect.any(String) });
  expect(isErrorCode(answer.body.code), `${what}: code ${String(answer.body.code)}`).toBe(true);
}

const postJson = <T>(session: Session, path: string, body: unknown) =>
  session.json<Envelope<T>>(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** POST /api/plans as the new-plan form sends it: the fields, and the roster when given. */
function planForm(fields: Record<string, string>, roster?: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (roster !== undefined) form.set("file", new Blob([roster], { type: "text/csv" }), "roster.csv");
  return form;
}

const PLAN_FIELDS = { descriptionTemplate: "{period} dues", frequency: "monthly", day: "1", sendAt: "09:00" } as const;

describe("issue 37 item 2: a link by hand needs the request's own verified payment", () => {
  it("refuses to link a ₦1 payment the verify host does not know to the tag's ₦150 pending request, from either of its exceptions; the request stays pending", async () => {
    const tag = `handlink.${stamp}`;
    const request = await createRequest(admin, { tag, amount: "150.00", description: "Gate levy" });
    expect(request.status).toBe("pending");
    const requestId = request.requestId ?? "";

    // A validly signed notice of ₦1 from that tag, for a transaction the service never made (a random uuid).
    const uuid = randomUUID();
    const base = payload();
    const body = JSON.stringify(
      payload({ uuid, amount: 1, actual_amount: 1, settled_amount: 1, fees: 0, customer: { ...base.customer, tag }, meta: { peer_tag: tag, name: "Ada Obi" } }),
    );
    const delivered = await fetch(`${app.url}/api/webhooks/peer-transfer`, { method: "POST", body, headers: signedHeaders(body, HARDENING_KEY) });
    expect(delivered.status).toBe(200);

    // Its follow-up finds no request of ₦1 to link and the verify host no such transaction: two exceptions open.
    const opened = async (kind: ExceptionKind) =>
      waitFor(
        `the ${kind} exception of the ₦1 payment`,
        async () => {
          const list = await admin.json<Envelope<ListData<ExceptionView>>>(`/api/exceptions?kind=${kind}`);
          return list.body.data.items.find((x) => x.paymentUuid === uuid);
        },
        60_000,
        250,
      );
    const failed = await opened("verification_failed");
    const unlinked = await opened("unlinked_payment");

    const link = (exceptionId: string, extra: Record<string, unknown> = {}) =>
      postJson<ExceptionView>(admin, `/api/exceptions/${exceptionId}/resolve`, { note: "It is their payment", requestId, ...extra });
    const fromFailed = await link(failed.id);
    expectRefusal(fromFailed, "linking from the verification_failed exception");
    expect(fromFailed.body.code).toBe("conflict");
    // Not from the unlinked payment's own exception either: the payment is not verified, whatever amount is accepted.
    for (const extra of [{}, { acceptDifferentAmount: true }]) {
      const fromUnlinked = await link(unlinked.id, extra);
      expectRefusal(fromUnlinked, `linking from the unlinked_payment exception ${JSON.stringify(extra)}`);
      expect(fromUnlinked.body.code).toBe("conflict");
    }

    const listed = await admin.json<Envelope<ListData<FundRequestView & { paymentUuid: string | null }>>>(`/api/requests?tag=${encodeURIComponent(tag)}`);
    expect(listed.body.data.items.map((r) => [r.requestId, r.status, r.paymentUuid])).toEqual([[requestId, "pending", null]]);
    // Both exceptions are still open, for a person to settle otherwise.
    for (const kind of ["verification_failed", "unlinked_payment"] as const) {
      const still = await admin.json<Envelope<ListData<ExceptionView>>>(`/api/exceptions?kind=${kind}`);
      expect(still.body.data.items.find((x) => x.paymentUuid === uuid)?.status, kind).toBe("open");
    }
  });
});

describe("issue 37 item 3: spellings of one time zone do not grow the server", () => {
  const ZONE = "America/Argentina/ComodRivadavia";
  const VARIANTS = 10_000;
  /**
   * The old cache kept a formatter per spelling, about 25 KB each here: 10,000 spellings grew the server by some
   * 250 MB. Without it the same flood moves the server's memory by what its heap and allocator settle at under that
   * load: measured 0–60 MB after the warm-up.
   */
  const GROWTH_LIMIT = 128 * 1024 * 1024;

  /** The `n`th casing of ZONE: its letters upper or lower by the bits of n (n from 1; never ZONE itself). */
  function spelling(n: number): string {
    let bit = 0;
    const cased = [...ZONE].map((ch) => {
      if (!/[a-z]/i.test(ch)) return ch;
      const upper = ((n >> bit++) & 1) === 1;
      return upper ? ch.toUpperCase() : ch.toLowerCase();
    });
    return cased.join("");
  }

  /** A plan whose fields are all valid, the zone spelled `timeZone`, and no roster: 422 after the zone is checked. */
  const attempt = (timeZone: string) =>
    admin.json<Envelope>("/api/plans", {
      method: "POST",
      body: planForm({ ...PLAN_FIELDS, name: "Zone spellings", startsOn: "2100-01-01", timeZone }),
    });

  /** `count` attempts, `parallel` at a time; answers their statuses by count. */
  async function flood(count: number, zoneOf: (i: number) => string, parallel = 4): Promise<Record<number, number>> {
    const statuses: Record<number, number> = {};
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const i = next++;
          const answer = await attempt(zoneOf(i));
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        }
      }),
    );
    return statuses;
  }

  it("answers 10,000 differently cased America/Argentina/ComodRivadavia with 422 while the server's memory stays within a small bound", async () => {
    const spellings = new Set(Array.from({ length: VARIANTS }, (_, i) => spelling(i + 1)));
    expect(spellings.size).toBe(VARIANTS);
    const first = await attempt(spelling(1));
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ status: false, code: "validation_failed", data: { fieldErrors: { file: [expect.any(String)] } } });
    // The same spelling over and over first, as many times as it takes the heap to settle under this load (measured),
    // so what the route and a busy heap take is not counted as growth.
    expect(await flood(4_000, () => ZONE)).toEqual({ 422: 4_000 });
    const before = treeRssBytes(app.pid);
    const list = [...spellings];
    expect(await flood(VARIANTS, (i) => list[i] ?? ZONE)).toEqual({ 422: VARIANTS });
    const grown = treeRssBytes(app.pid) - before;
    console.log(`[hardening] ${VARIANTS} spellings of ${ZONE} grew the server by ${(grown / 1024 / 1024).toFixed(1)} MB`);
    expect(grown).toBeLessThan(GROWTH_LIMIT);
    expect((await admin.json<Envelope>("/api/plans")).status).toBe(200);
  }, 420_000);
});

describe("issue 37 item 4: a plan starting in 2999", () => {
  it("is refused with 422 naming startsOn, nothing is made, and GET /api/plans still answers 200", async () => {
    const name = `Far weekly ${stamp}`;
    const made = await admin.json<Envelope<{ fieldErrors: Record<string, string[]> }>>("/api/plans", {
      method: "POST",
      body: planForm({ ...PLAN_FIELDS, name, frequency: "weekly", day: "1", startsOn: "2999-12-30" }, `tag,amount\nfarplan.${stamp},100\n`),
    });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(422);
    expectRefusal(made, "a plan starting 2999-12-30");
    expect(made.body.data.fieldErrors).toEqual({ startsOn: ["Enter the start date between 2000-01-01 and 2100-12-31"] });
    const list = await admin.json<Envelope<ListData<PlanListItem>>>("/api/plans");
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((p) => p.name)).not.toContain(name);
  });
});

describe("issue 37 item 7: only the current period or a missed one can be run", () => {
  it("refuses to run 2020-01 of a plan made now to start 2020-01-01, with a 409 and its code, and makes nothing", async () => {
    const made = await admin.json<Envelope<PlanView>>("/api/plans", {
      method: "POST",
      body: planForm({ ...PLAN_FIELDS, name: `Back periods ${stamp}`, startsOn: "2020-01-01" }, `tag,amount\nbackrun.${stamp},100\n`),
    });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
    const planId = made.body.data.id;
    // Made now, so none of its periods since 2020 is listed missed: each is past and was never due while it ran.
    expect(made.body.data.periods.filter((p) => p.period.startsWith("2020"))).toEqual([]);

    const run = await postJson<unknown>(admin, `/api/plans/${planId}/run`, { period: "2020-01" });
    expectRefusal(run, "running 2020-01");
    expect([run.status, run.body.code]).toEqual([409, "conflict"]);
    expect(run.body.message).toMatch(/past and not listed missed/);

    const after = await admin.json<Envelope<PlanView>>(`/api/plans/${planId}`);
    expect(after.status).toBe(200);
    expect(after.body.data.periods.map((p) => p.period)).not.toContain("2020-01");
  });
});

describe("issue 37 item 8: ADMIN_RESET left set", () => {
  const adminData = freshDataDir("review-four-admin");
  let owner: Dashboard | undefined;
  // The deploy keeps ADMIN_RESET=1 from the first start on, as an owner who forgot to unset it would.
  const env = sandboxModeEnv(PORTS.sandbox, { ADMIN_EMAIL: REAL_ADMIN.email, ADMIN_PASSWORD: REAL_ADMIN.password, ADMIN_RESET: "1" });

  afterAll(async () => {
    await owner?.stop();
    adminData.remove();
  });

  it("does not fire on the start after the one that created the admin: the owner's own password still signs in", async () => {
    owner = await startDashboard({ port: PORTS.adminApp, dataDir: adminData.dir, env });
    const session = await signIn(owner.url, REAL_ADMIN.email, REAL_ADMIN.password);
    expect(owner.output()).toContain(`Admin ${REAL_ADMIN.email} created from ADMIN_EMAIL/ADMIN_PASSWORD`);
    const own = `${REAL_ADMIN.password}-owners-own`;
    const changed = await postJson<unknown>(session, "/api/me/password", { currentPassword: REAL_ADMIN.password, newPassword: own });
    expect(changed.status, JSON.stringify(changed.body).slice(0, 300)).toBe(200);

    await owner.stop();
    owner = await startDashboard({ port: PORTS.adminApp, dataDir: adminData.dir, env });
    // Each sign-in from an address of its own, so the refused one throttles nothing else.
    expect((await trySignIn(owner.url, REAL_ADMIN.email, own, { address: fakeAddress() })).ok, "the owner's own password").toBe(true);
    expect((await trySignIn(owner.url, REAL_ADMIN.email, REAL_ADMIN.password, { address: fakeAddress() })).ok, "the deploy's password").toBe(false);
    // The start said why it changed nothing (its admins are made before it answers, so the line is out by now).
    expect(owner.output()).toMatch(/ADMIN_RESET=1 ignored: .*already reset with this ADMIN_PASSWORD/);
  });
});

// Issue 14: a campaign's rows are each sent once, whatever the process does. A running campaign's
// dashboard is killed with SIGKILL mid-send and restarted on the same embedded database: the job
// engine takes the send up again by itself, and the sandbox ends up holding exactly one request per row.
import { afterAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { CREATE_PATH, sandboxControl } from "@/tests/support/sandbox-control";
import { signIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import { DEMO, HARDENING_KEY, PORTS, freshDataDir, sandboxModeEnv, startDashboard, type Dashboard, type Envelope } from "./support";

const ROWS = 150;

/** Uploads a campaign of `rows` people `<prefix>.<n>` (who wait for a person) and starts it; answers its id. */
async function startCampaign(admin: Session, name: string, prefix: string, rows: number): Promise<string> {
  const csv = `tag,amount,description\n${Array.from({ length: rows }, (_, i) => `${prefix}.${i},${100 + i},Dues ${i}`).join("\n")}\n`;
  const form = new FormData();
  form.set("name", name);
  form.set("file", new Blob([csv], { type: "text/csv" }), "dues.csv");
  const uploaded = await admin.json<Envelope<{ id: string }>>("/api/campaigns", { method: "POST", body: form });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const id = uploaded.body.data.id;
  expect((await admin.json(`/api/campaigns/${id}/start`, { method: "POST" })).status).toBe(200);
  return id;
}

interface CampaignCounts {
  status: string;
  counts: { total: number; queued: number; sent: number; accepted: number; failed: number; unknown: number };
}

describe("campaign sending survives a SIGKILL", () => {
  const data = freshDataDir("campaign-crash");
  let sandbox: Sandbox | undefined;
  let app: Dashboard | undefined;
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sandbox?.close();
    data.remove();
  });

  it("sends every row exactly once across a kill and a restart, without anybody doing anything", async () => {
    sandbox = await startSandbox({ port: PORTS.campaignCrash.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} });
    // A generous budget, so the campaign is mid-send within seconds rather than minutes.
    const env = sandboxModeEnv(PORTS.campaignCrash.sandbox, { SERVICE_RATE_LIMIT_PER_MIN: "3000" });
    app = await startDashboard({ port: PORTS.campaignCrash.app, dataDir: data.dir, env });
    const first = app;
    const admin = await signIn(first.url, DEMO.email, DEMO.password);
    const stamp = Date.now().toString(36);
    const id = await startCampaign(admin, "Crash dues", `hold${stamp}`, ROWS);

    const counts = async (url: string) => {
      const session = await signIn(url, DEMO.email, DEMO.password);
      return async () => (await session.json<Envelope<CampaignCounts>>(`/api/campaigns/${id}`)).body.data;
    };
    const before = await counts(first.url);
    await waitFor("a fifth of the rows sent", async () => ((await before()).counts.sent >= ROWS / 5 ? true : undefined), 60_000, 50);
    process.kill(first.pid, "SIGKILL");
    await first.exit;
    const atKill = sandboxControl(sandbox).requests;
    const sentBeforeKill = (await atKill()).filter((r) => r.requested_sent_to.tag.startsWith(`hold${stamp}.`)).length;
    expect(sentBeforeKill).toBeLessThan(ROWS);

    app = await startDashboard({ port: PORTS.campaignCrash.app, dataDir: data.dir, env });
    const after = await counts(app.url);
    const done = await waitFor(
      "the campaign done after the restart",
      async () => {
        const c = await after();
        return c.status === "done" ? c : undefined;
      },
      120_000,
      250,
    );
    // At most one row was at the service at the kill: it ends "unknown", never "failed", and is never sent twice.
    expect(done.counts.queued).toBe(0);
    expect(done.counts.failed).toBe(0);
    expect(done.counts.unknown).toBeLessThanOrEqual(1);
    expect(done.counts.sent + done.counts.unknown).toBe(ROWS);
    const held = (await sandboxControl(sandbox).requests()).filter((r) => r.requested_sent_to.tag.startsWith(`hold${stamp}.`));
    // At the service: one request per row, none twice, none lost but the one whose outcome is unknown.
    expect(new Set(held.map((r) => r.requested_sent_to.tag)).size).toBe(held.length);
    expect(held.length).toBeGreaterThanOrEqual(ROWS - 1);
    expect(held.length).toBeLessThanOrEqual(ROWS);
    if (done.counts.unknown === 1) {
      // The row in flight at the kill: when the service did receive it and its person pays, the payment settles it.
      const session = await signIn(app.url, DEMO.email, DEMO.password);
      const rows = await session.json<Envelope<{ items: { tag: string }[] }>>(`/api/campaigns/${id}/rows?status=unknown`);
      const tag = rows.body.data.items[0]?.tag;
      const request = held.find((r) => r.requested_sent_to.tag === tag);
      if (request) {
        await sandboxControl(sandbox).accept(request.request_id);
        const settled = await waitFor("the unknown row settled by its payment", async () => {
          const c = await after();
          return c.counts.unknown === 0 ? c : undefined;
        });
        expect(settled.counts.accepted).toBe(1);
      }
    }
  });
});

// Issue 20: a deploy stops an instance with SIGTERM. It finishes the row in flight, takes no new one, and exits 0;
// the next start sends the rest, and no row is left "failed, outcome unknown".
describe("campaign sending across a SIGTERM", () => {
  const data = freshDataDir("campaign-stop");
  let sandbox: Sandbox | undefined;
  let app: Dashboard | undefined;
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sandbox?.close();
    data.remove();
  });

  it("exits 0 after the row in flight, and after a restart every row is sent once with none of unknown outcome", async () => {
    const rows = 12;
    // Every create takes 1.5 s, so a call is in flight when the signal arrives.
    sandbox = await startSandbox({ port: PORTS.campaignStop.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], slowDelayMs: 1_500, log: () => {} });
    await sandboxControl(sandbox).fault(CREATE_PATH, "slow", 1_000);
    const env = sandboxModeEnv(PORTS.campaignStop.sandbox, { SERVICE_RATE_LIMIT_PER_MIN: "3000" });
    app = await startDashboard({ port: PORTS.campaignStop.app, dataDir: data.dir, env });
    const first = app;
    const admin = await signIn(first.url, DEMO.email, DEMO.password);
    const stamp = Date.now().toString(36);
    const id = await startCampaign(admin, "Stop dues", `stop${stamp}`, rows);
    const counts = async (session: typeof admin) => (await session.json<Envelope<CampaignCounts>>(`/api/campaigns/${id}`)).body.data;
    await waitFor("a few rows sent", async () => ((await counts(admin)).counts.sent >= 2 ? true : undefined), 60_000, 100);

    first.signal("SIGTERM");
    const exit = await Promise.race([first.exit, new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000))]);
    expect(exit, first.tail(20)).toEqual({ code: 0, signal: null });
    expect(first.output()).toContain("[server] stopped");

    app = await startDashboard({ port: PORTS.campaignStop.app, dataDir: data.dir, env });
    const again = await signIn(app.url, DEMO.email, DEMO.password);
    const done = await waitFor(
      "the campaign done after the restart",
      async () => {
        const c = await counts(again);
        return c.status === "done" ? c : undefined;
      },
      120_000,
      250,
    );
    expect(done.counts).toMatchObject({ queued: 0, failed: 0, sent: rows });
    const held = (await sandboxControl(sandbox).requests()).filter((r) => r.requested_sent_to.tag.startsWith(`stop${stamp}.`));
    expect(held).toHaveLength(rows);
    expect(new Set(held.map((r) => r.requested_sent_to.tag)).size).toBe(rows);
  });
});

// Issue 24: a plan's period is made once and asks each member once, whatever the process does. A period is run,
// the dashboard is killed with SIGKILL the moment it answers (its campaign sending, its first rows at most just
// out), and restarted: the period has exactly one campaign, each member is asked once, and running it again is a 409.
describe("a plan's period across a SIGKILL", () => {
  const data = freshDataDir("plan-crash");
  let sandbox: Sandbox | undefined;
  let app: Dashboard | undefined;
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sandbox?.close();
    data.remove();
  });

  it("keeps one campaign for the period and asks each member once across a kill right after the run", async () => {
    const members = 40;
    sandbox = await startSandbox({ port: PORTS.planCrash.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} });
    const env = sandboxModeEnv(PORTS.planCrash.sandbox, { SERVICE_RATE_LIMIT_PER_MIN: "3000" });
    app = await startDashboard({ port: PORTS.planCrash.app, dataDir: data.dir, env });
    const first = app;
    const admin = await signIn(first.url, DEMO.email, DEMO.password);
    const stamp = Date.now().toString(36);
    const form = new FormData();
    // Due on the 1st at 00:00 in Lagos: this month's period is always due, so it can be run now.
    for (const [k, v] of Object.entries({
      name: "Crash plan",
      frequency: "monthly",
      day: "1",
      sendAt: "00:00",
      startsOn: "2026-01-01",
      descriptionTemplate: "{period} dues",
    }))
      form.set(k, v);
    form.set(
      "file",
      new Blob([`tag,amount\n${Array.from({ length: members }, (_, i) => `plan${stamp}.${i},${100 + i}`).join("\n")}\n`], { type: "text/csv" }),
      "roster.csv",
    );
    const plan = await admin.json<Envelope<{ id: string }>>("/api/plans", { method: "POST", body: form });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const period = new Date().toLocaleDateString("en-CA", { timeZone: "Africa/Lagos" }).slice(0, 7);
    const run = () =>
      admin.json<Envelope<{ campaignId: string }>>(`/api/plans/${plan.body.data.id}/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ period }),
      });
    const ran = await run();
    expect(ran.status, JSON.stringify(ran.body)).toBe(201);
    process.kill(first.pid, "SIGKILL");
    await first.exit;
    const ours = async () => (await sandboxControl(sandbox as Sandbox).requests()).filter((r) => r.requested_sent_to.tag.startsWith(`plan${stamp}.`));
    expect((await ours()).length).toBeLessThan(members);

    app = await startDashboard({ port: PORTS.planCrash.app, dataDir: data.dir, env });
    const again = await signIn(app.url, DEMO.email, DEMO.password);
    const done = await waitFor(
      "the period's campaign done after the restart",
      async () => {
        const c = (await again.json<Envelope<CampaignCounts>>(`/api/campaigns/${ran.body.data.campaignId}`)).body.data;
        return c.status === "done" ? c : undefined;
      },
      120_000,
      250,
    );
    expect(done.counts.queued).toBe(0);
    // The row whose call the kill cut ends "unknown" (never "failed", never sent again); at most one such row.
    expect(done.counts.failed).toBe(0);
    expect(done.counts.unknown).toBeLessThanOrEqual(1);
    expect(done.counts.sent + done.counts.unknown).toBe(members);
    const held = await ours();
    expect(new Set(held.map((r) => r.requested_sent_to.tag)).size).toBe(held.length);
    // Everyone asked once, bar at most the one row whose call the kill cut: a request left `sending` becomes
    // `unknown` in the sweep and is not sent again (a payment or the service's answer settles it).
    expect(held.length).toBeGreaterThanOrEqual(members - 1);
    const view = await again.json<Envelope<{ periods: { period: string; status: string; campaignId: string }[] }>>(`/api/plans/${plan.body.data.id}`);
    expect(view.body.data.periods).toEqual([expect.objectContaining({ period, status: "made", campaignId: ran.body.data.campaignId })]);
    const rerun = await again.json<Envelope>(`/api/plans/${plan.body.data.id}/run`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ period }),
    });
    expect(rerun.status).toBe(409);
    // Two dashboard starts (90 s each at most on a busy machine) and the campaign's 120 s: more than the default 180 s.
  }, 360_000);
});

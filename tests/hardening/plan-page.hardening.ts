// Issue 37: a 10,000-member plan's page was 63 MB of HTML, every member rendered and embedded. The roster now comes a
// page at a time (docs/architecture.md "Plans": `?members=`, ROSTER_PAGE_SIZE), so over HTTP against a real
// `next start` the plan's page and GET /api/plans/:id stay under 2 MB however large the plan.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { signIn, type Session } from "@/tests/support/sign-in";

import { DEMO, HARDENING_KEY, PORTS, freshDataDir, sandboxModeEnv, startDashboard, type Dashboard, type Envelope } from "./support";

const MEMBERS = 10_000;
const LIMIT_BYTES = 2 * 1024 * 1024;

interface PlanBody {
  id: string;
  members: number;
  roster: { row: number; tag: string }[];
  rosterPage: number;
  rosterTotal: number;
  askable: { count: number; amount: string };
}

let sandbox: Sandbox;
let app: Dashboard;
let admin: Session;
const data = freshDataDir("plan-page");

beforeAll(async () => {
  sandbox = await startSandbox({ port: PORTS.planPage.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} });
  app = await startDashboard({ port: PORTS.planPage.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.planPage.sandbox) });
  admin = await signIn(app.url, DEMO.email, DEMO.password);
});

afterAll(async () => {
  await app?.stop();
  await sandbox?.close();
  data.remove();
});

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

describe("issue 37: a large plan's page", () => {
  it("keeps a 10,000-member plan's page and its API under 2 MB, one page of the roster at a time", async () => {
    const stamp = Date.now().toString(36);
    const tagOf = (i: number) => `pp${stamp}.m${String(i).padStart(5, "0")}`;
    const form = new FormData();
    // Monthly from 2100: no period is due, so the plan makes no campaign; only its roster is large.
    for (const [k, v] of Object.entries({
      name: "Ten thousand members",
      frequency: "monthly",
      day: "1",
      sendAt: "09:00",
      startsOn: "2100-01-01",
      descriptionTemplate: "{period} dues",
    }))
      form.set(k, v);
    const roster = `tag,amount\n${Array.from({ length: MEMBERS }, (_, i) => `${tagOf(i + 1)},${1000 + (i % 50)}`).join("\n")}\n`;
    form.set("file", new Blob([roster], { type: "text/csv" }), "roster.csv");
    const started = Date.now();
    const made = await admin.json<Envelope<PlanBody>>("/api/plans", { method: "POST", body: form, signal: AbortSignal.timeout(120_000) });
    expect(made.status, JSON.stringify(made.body).slice(0, 400)).toBe(201);
    console.log(`[hardening] a ${MEMBERS.toLocaleString("en")}-member plan (${mb(roster.length)} of CSV) made in ${Date.now() - started} ms`);
    const id = made.body.data.id;
    expect(made.body.data.members).toBe(MEMBERS);

    const page = await admin.fetch(`/plans/${id}`, { signal: AbortSignal.timeout(60_000) });
    expect(page.status).toBe(200);
    const html = await page.text();
    const api = await admin.fetch(`/api/plans/${id}`, { signal: AbortSignal.timeout(60_000) });
    expect(api.status).toBe(200);
    const json = await api.text();
    const last = await admin.fetch(`/plans/${id}?members=${MEMBERS / 50}`, { signal: AbortSignal.timeout(60_000) });
    expect(last.status).toBe(200);
    const lastHtml = await last.text();
    const bytes = (text: string) => Buffer.byteLength(text, "utf8");
    console.log(
      `[hardening] ${MEMBERS.toLocaleString("en")}-member plan: page ${mb(bytes(html))}, last roster page ${mb(bytes(lastHtml))}, GET /api/plans/:id ${mb(bytes(json))}`,
    );
    expect(bytes(html)).toBeLessThan(LIMIT_BYTES);
    expect(bytes(lastHtml)).toBeLessThan(LIMIT_BYTES);
    expect(bytes(json)).toBeLessThan(LIMIT_BYTES);

    // One page of members, the counts over all of them, and the last page reachable by `?members=`.
    const view = (JSON.parse(json) as Envelope<PlanBody>).data;
    expect({ members: view.members, rosterTotal: view.rosterTotal, rosterPage: view.rosterPage, askable: view.askable.count }).toEqual({
      members: MEMBERS,
      rosterTotal: MEMBERS,
      rosterPage: 1,
      askable: MEMBERS,
    });
    expect(view.roster.map((m) => m.tag)).toEqual(Array.from({ length: 50 }, (_, i) => tagOf(i + 1)));
    expect(html).toContain("Page 1 of 200");
    expect(lastHtml).toContain(`data-tag="${tagOf(MEMBERS)}"`);
    expect(lastHtml).not.toContain(`data-tag="${tagOf(1)}"`);
  });
});

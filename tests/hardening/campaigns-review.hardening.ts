// Issue 19's campaign findings over HTTP against a real `next start`: an upload read only as far as its
// cap (a 300 MB chunked body), the drafts one person keeps, client keys that look like a campaign's,
// cancel while a row's call is under way, and a sender disabled mid-send.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { floodChunked } from "@/tests/support/chunked-flood";
import { treeRssBytes } from "@/tests/support/process-memory";
import { CREATE_CALL, CREATE_PATH, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { chooseOwnPassword, signIn, type Session } from "@/tests/support/sign-in";
import { waitFor } from "@/tests/support/wait-for";

import {
  DEMO,
  HARDENING_KEY,
  PORTS,
  freshDataDir,
  sandboxModeEnv,
  startDashboard,
  type Dashboard,
  type Envelope,
  type FundRequestView,
  type ListData,
} from "./support";

interface Campaign {
  id: string;
  status: string;
  sentBy: string | null;
  pausedReason: string | null;
  counts: { total: number; queued: number; sent: number; skipped: number; failed: number };
}
interface CampaignRow {
  row: number;
  tag: string;
  status: string;
  requestId: string | null;
}

const MIB = 1024 * 1024;
const SLOW_MS = 2_500;

describe("campaigns: the security review's findings over HTTP", () => {
  const data = freshDataDir("campaigns-review");
  let sandbox: Sandbox;
  let control: SandboxControl;
  let app: Dashboard;
  let admin: Session;
  const stamp = Date.now().toString(36);

  beforeAll(async () => {
    sandbox = await startSandbox({ port: PORTS.campaignsReview.sandbox, apiKey: HARDENING_KEY, slowDelayMs: SLOW_MS, webhookRetryDelaysMs: [], log: () => {} });
    control = sandboxControl(sandbox);
    // A generous budget: rows go out within seconds.
    app = await startDashboard({
      port: PORTS.campaignsReview.app,
      dataDir: data.dir,
      env: sandboxModeEnv(PORTS.campaignsReview.sandbox, { SERVICE_RATE_LIMIT_PER_MIN: "3000" }),
    });
    admin = await signIn(app.url, DEMO.email, DEMO.password);
  }, 120_000);
  afterAll(async () => {
    await app?.stop("SIGKILL");
    await sandbox?.close();
    data.remove();
  });

  async function newStaff(label: string, role: "operator" | "admin"): Promise<{ id: string; name: string; session: Session }> {
    const email = `${label}-${stamp}@hardening.test`;
    const password = `${label}-pass-${stamp}-long`;
    const name = `Review ${label}`;
    const res = await admin.json<Envelope<{ id: string }>>("/api/staff", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, name, role, password }),
    });
    if (res.status !== 201) throw new Error(`POST /api/staff answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return { id: res.body.data.id, name, session: await signIn(app.url, email, await chooseOwnPassword(app.url, email, password)) };
  }

  async function upload(session: Session, name: string, lines: string[]) {
    const form = new FormData();
    form.set("name", name);
    form.set("file", new Blob([`tag,amount,description\n${lines.join("\n")}\n`], { type: "text/csv" }), "rows.csv");
    return session.json<Envelope<Campaign>>("/api/campaigns", { method: "POST", body: form });
  }
  async function uploaded(session: Session, name: string, lines: string[]): Promise<string> {
    const res = await upload(session, name, lines);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id;
  }
  const act = (session: Session, id: string, action: string) => session.json<Envelope<Campaign>>(`/api/campaigns/${id}/${action}`, { method: "POST" });
  const campaign = async (id: string) => (await admin.json<Envelope<Campaign>>(`/api/campaigns/${id}`)).body.data;
  const rows = async (id: string) => (await admin.json<Envelope<ListData<CampaignRow>>>(`/api/campaigns/${id}/rows`)).body.data.items;
  const until = (id: string, what: string, done: (c: Campaign) => boolean, timeoutMs = 60_000) =>
    waitFor(
      what,
      async () => {
        const c = await campaign(id);
        return done(c) ? c : undefined;
      },
      timeoutMs,
      100,
    );

  it("refuses a 300 MB chunked upload after reading about 2 MiB, without the server's memory growing with it", async () => {
    const before = treeRssBytes(app.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRssBytes(app.pid))), 50);
    const boundary = `----review${stamp}`;
    // No Content-Length: chunked, so nothing tells the server the size before it reads.
    const outcome = await floodChunked(new URL("/api/campaigns", app.url).href, {
      method: "POST",
      headers: { cookie: admin.cookie(), origin: app.url, "content-type": `multipart/form-data; boundary=${boundary}` },
      totalBytes: 300 * MIB,
      prefix: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHuge\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\nContent-Type: text/csv\r\n\r\ntag,amount,description\n`,
      filler: "a,1,x\n",
    });
    const written = outcome.sentBytes;
    clearInterval(sampler);
    peak = Math.max(peak, treeRssBytes(app.pid));
    // Answered 413, or (had the server closed the connection first) no answer at all; never anything else.
    if (outcome.status !== null) expect(outcome.status).toBe(413);
    if (outcome.body !== null) expect(JSON.parse(outcome.body)).toMatchObject({ status: false, message: expect.stringMatching(/larger than 2 MiB/) });
    expect(written, "stopped well before the whole 300 MB").toBeLessThan(300 * MIB);
    expect(peak - before, `RSS grew by ${Math.round((peak - before) / MIB)} MiB`).toBeLessThan(100 * MIB);
    // Still serving, and the person can upload a file of the right size.
    const ok = await upload(admin, "After the huge one", [`after.${stamp},10,Fine`]);
    expect(ok.status).toBe(201);
    expect((await act(admin, ok.body.data.id, "cancel")).status).toBe(200);
  }, 180_000);

  it("keeps at most 20 drafts per person, also under concurrent uploads, and the 21st says what to do", async () => {
    const uploader = await newStaff("drafts", "operator");
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => upload(uploader.session, `Draft ${i}`, [`draft${i}.${stamp},10,Dues`])));
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(20);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r.body.message).toMatch(/20 draft campaigns.*Discard draft/);
    // Discarding one frees a place; someone else was never held back.
    expect((await act(uploader.session, created[0]?.body.data.id ?? "", "cancel")).status).toBe(200);
    expect((await upload(uploader.session, "One more", [`more.${stamp},10,Dues`])).status).toBe(201);
    expect((await upload(uploader.session, "Too many", [`more2.${stamp},10,Dues`])).status).toBe(409);
  }, 120_000);

  it("lets no client key take a campaign row's key: the rows are sent with their own requests", async () => {
    const [a, b] = [`keys1.${stamp}`, `keys2.${stamp}`];
    const id = await uploaded(admin, "Keys", [`${a},10,One`, `${b},20,Two`]);
    const post = (tag: string, amount: string, description: string, row: number) =>
      admin.json<Envelope<FundRequestView>>("/api/requests", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tag, amount, description, idempotencyKey: `cmp_${id}_${row}` }),
      });
    const one = await post(`keysother.${stamp}`, "5", "Not the row", 1);
    const two = await post(b, "20", "Two", 2);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect((await act(admin, id, "start")).status).toBe(200);
    await until(id, "the keys campaign done", (c) => c.status === "done");
    const sent = await rows(id);
    expect(sent.map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(sent[0]?.requestId).not.toBe(one.body.data.requestId);
    expect(sent[1]?.requestId).not.toBe(two.body.data.requestId);
    // The client's repeat finds its own record.
    const again = await post(b, "20", "Two", 2);
    expect(again.status).toBe(200);
    expect(again.body.data.requestId).toBe(two.body.data.requestId);
  }, 90_000);

  it("sends a row whose call was under way at cancel with its request, and skips only the rest", async () => {
    await control.reset();
    const tags = [1, 2, 3].map((i) => `cancel${i}.${stamp}`);
    const id = await uploaded(
      admin,
      "Cancel mid-call",
      tags.map((t, i) => `${t},${10 + i},Row ${i + 1}`),
    );
    // Every create call is slow (the fault's prefix also matches status reads, so it has no count).
    await control.fault(CREATE_PATH, "slow");
    expect((await act(admin, id, "start")).status).toBe(200);
    await waitFor("row 1's call at the service", async () => ((await control.count(CREATE_CALL)) >= 1 ? true : undefined), 30_000, 20);
    expect((await act(admin, id, "cancel")).status).toBe(200);
    await control.clearFaults();
    const settled = await waitFor(
      "row 1 sent with its request",
      async () => {
        const r = await rows(id);
        return r[0]?.status === "sent" ? r : undefined;
      },
      SLOW_MS + 20_000,
      100,
    );
    expect(settled[0]?.requestId).toMatch(/\S/);
    expect(settled.slice(1).map((r) => r.status)).toEqual(["skipped", "skipped"]);
    const held = (await control.requests()).filter((r) => tags.includes(r.requested_sent_to.tag));
    expect(held.map((r) => r.request_id)).toEqual([settled[0]?.requestId]);
    expect((await campaign(id)).counts).toMatchObject({ sent: 1, skipped: 2, queued: 0 });
  }, 60_000);

  it("pauses a disabled sender's campaign with the reason shown and sends on under whoever resumes it", async () => {
    await control.reset();
    const operator = await newStaff("sender", "operator");
    const tags = Array.from({ length: 8 }, (_, i) => `sender${i}.${stamp}`);
    const id = await uploaded(
      operator.session,
      "Sender disabled",
      tags.map((t, i) => `${t},${10 + i},Row ${i + 1}`),
    );
    // Each call takes a while, so the disable lands mid-send.
    await control.fault(CREATE_PATH, "slow");
    expect((await act(operator.session, id, "start")).status).toBe(200);
    await until(id, "a first row sent", (c) => c.counts.sent >= 1, 30_000);
    const disabled = await admin.json(`/api/staff/${operator.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    // Paused by the disable itself, not at some later row.
    const paused = await campaign(id);
    expect(paused).toMatchObject({ status: "paused", sentBy: operator.name });
    expect(paused.pausedReason).toMatch(new RegExp(`${operator.name}, who was sending it, was disabled`));
    const page = await (await admin.fetch(`/campaigns/${id}`)).text();
    expect(page).toContain("who was sending it, was disabled");
    const atPause = (await control.requests()).filter((r) => tags.includes(r.requested_sent_to.tag)).length;

    await control.clearFaults();
    const me = (await admin.json<Envelope<{ id: string; name: string }>>("/api/me")).body.data;
    const resumed = await act(admin, id, "resume");
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ status: "sending", sentBy: me.name, pausedReason: null });
    await until(id, "the campaign done under its new sender", (c) => c.status === "done");
    // At most the row whose call was under way at the disable went out under the operator's name.
    const requests = (
      await admin.json<Envelope<ListData<FundRequestView & { createdBy: { id: string } | null }>>>(`/api/requests?tag=sender`)
    ).body.data.items.filter((r) => tags.includes(r.tag));
    expect(requests).toHaveLength(tags.length);
    const underOperator = requests.filter((r) => r.createdBy?.id === operator.id).length;
    expect(underOperator).toBeLessThanOrEqual(atPause + 1);
    expect(requests.filter((r) => r.createdBy?.id === me.id)).toHaveLength(tags.length - underOperator);
    expect(underOperator).toBeLessThan(tags.length);
  }, 120_000);
});

// Benchmarks 15 and 16: the durable consumers of business events (issues 39 and 40), each on its own dashboard on a
// fresh embedded database. Payments arrive as signed deliveries (each one `payment.received`), at a steady pace.
//  15. Notifications: `people` operators chose e-mail at once for payments; every e-mail must reach an SMTP sink (the
//      bench's own, in this process, so nothing is lost to a mailbox's cap). Target: event → SMTP acceptance p95 < 10 s.
//  16. Outgoing webhooks: three endpoints for `payment.received` (local receivers in this process), one answering 500
//      to everything. Targets: event → first attempt p95 < 2 s; the two good endpoints receive every event within 60 s
//      of the first, however the failing one fares.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import { openDatabase, queryRows } from "@/lib/db/client";
import { Mailbox } from "@/sandbox/mailbox";
import { startMailSink } from "@/sandbox/mail-sink";
import { payload } from "@/tests/support/payloads";
import { deliverySignature } from "@/tests/support/sign-delivery";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { startDashboard } from "./dashboard";
import { createStaff } from "./dashboard-api";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn } from "./session";
import { round, summarize, type Summary } from "./stats";

interface Sent {
  uuid: string;
  /** performance.now() when the dashboard answered 200 (the payment and its event committed). */
  at: number;
}

/** `count` signed deliveries of fresh payments, `perSecond` a second; the times of their 200s. */
async function sendPayments(webhookUrl: string, apiKey: string, count: number, perSecond: number): Promise<Sent[]> {
  const sent: Sent[] = [];
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const uuid = randomUUID();
    const body = JSON.stringify(payload({ uuid, description: `Bench consumer ${i}` }));
    inFlight.push(
      fetch(webhookUrl, { method: "POST", headers: { "content-type": "application/json", "x-service-signature": deliverySignature(body, apiKey) }, body })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) sent.push({ uuid, at: performance.now() });
        })
        .catch(() => undefined),
    );
  }
  await Promise.all(inFlight);
  return sent;
}

export interface NotificationsBenchResult {
  payments: number;
  people: number;
  expected: number;
  received: number;
  /** Payment's 200 → the sink accepting its e-mail, per (payment, person). */
  latencyMs: Summary;
  totalSeconds: number;
}

export async function benchNotifications(ctx: BenchContext): Promise<NotificationsBenchResult> {
  const { payments, people, perSecond, timeoutMs } = ctx.options.notifications;
  const arrived = new Map<string, number>();
  /** The bench's own people: only their e-mails are counted (an admin's, by their defaults, are not). */
  const wanted = new Set<string>();
  // Each message's arrival is noted as the sink files it (its link names the payment): reading the whole mailbox
  // again on every check would take the bench's own CPU from the server it measures.
  const mailbox = new (class extends Mailbox {
    override deliver(...args: Parameters<Mailbox["deliver"]>) {
      const filed = super.deliver(...args);
      for (const m of filed) {
        const uuid = /\/payments\/([0-9a-f-]{36})/.exec(m.html ?? m.text)?.[1];
        const key = `${uuid}|${m.to.toLowerCase()}`;
        if (uuid && wanted.has(m.to.toLowerCase()) && !arrived.has(key)) arrived.set(key, Date.parse(m.at));
      }
      return filed;
    }
  })(payments * people + 100);
  const sink = await startMailSink({ port: 0, host: "127.0.0.1", mailbox, log: () => undefined });
  const port = await freePorts(...SERVER_PORTS);
  const dashboard = await startDashboard({
    root: ctx.options.root,
    distDir: ctx.distDir,
    port,
    sandboxPort: ctx.sandbox.port,
    apiKey: ctx.apiKey,
    dataDir: mkdtempSync(path.join(ctx.tempRoot, "notifications-")),
    env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}` },
  });
  try {
    const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const emails: string[] = [];
    for (let i = 0; i < people; i++) {
      const email = `bench.told.${i}.${Date.now()}@bench.test`;
      const password = await createStaff(admin, "operator", email, "bench-password-123");
      const person = await signIn(dashboard.url, email, password, nextClientIp());
      const choices = Object.fromEntries(EVENT_TYPES.map((t) => [t, t === "payment.received" ? "email" : "off"]));
      const saved = await person.json("/api/me/notifications", { method: "PUT", body: JSON.stringify({ choices, paymentThreshold: null, digest: false }) });
      if (saved.status !== 200) throw new Error(`preferences of ${email}: HTTP ${saved.status} ${saved.message}`);
      emails.push(email.toLowerCase());
      wanted.add(email.toLowerCase());
    }
    const started = performance.now();
    const sent = await sendPayments(`${dashboard.url}/api/webhooks/peer-transfer`, ctx.apiKey, payments, perSecond);
    const expected = sent.length * people;
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline && arrived.size < expected) await sleep(200);
    // Wall-clock arrival against the 200's wall-clock time.
    const offset = Date.now() - performance.now();
    const latencies: number[] = [];
    for (const s of sent)
      for (const e of emails) {
        const at = arrived.get(`${s.uuid}|${e}`);
        if (at !== undefined) latencies.push(Math.max(0, at - (s.at + offset)));
      }
    return {
      payments: sent.length,
      people,
      expected,
      received: arrived.size,
      latencyMs: summarize(latencies),
      totalSeconds: round((performance.now() - started) / 1000, 1),
    };
  } finally {
    await dashboard.stop();
    await sink.close();
  }
}

export interface OutboundBenchResult {
  events: number;
  /** Per good endpoint: events received (deduplicated by webhook-id). */
  goodReceived: number[];
  /** From the first payment's 200 to the last good delivery. */
  allGoodWithinSeconds: number | null;
  /** Payment's 200 → its first attempt at a good endpoint. */
  firstAttemptMs: Summary;
  /** Attempts the failing endpoint got meanwhile. */
  failingAttempts: number;
  /**
   * Where the first attempt's time goes, read from the dashboard's database once it has stopped (the database's own
   * clock), over the good endpoints' deliveries delivered at their first attempt: the event committed → dispatched (its
   * consumers' jobs queued) → its delivery made → delivered.
   */
  stagesMs: { dispatch: Summary; delivery: Summary; attempt: Summary } | null;
}

interface Receiver {
  url: string;
  /** webhook-id → first arrival (performance.now()) and the payment's uuid. */
  arrivals: Map<string, { at: number; uuid: string }>;
  attempts: number;
  close(): Promise<void>;
}

async function receiver(status: number): Promise<Receiver> {
  const arrivals = new Map<string, { at: number; uuid: string }>();
  const state = { attempts: 0 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.attempts += 1;
      const id = String(req.headers["webhook-id"] ?? "");
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: { uuid?: string } };
        if (!arrivals.has(id)) arrivals.set(id, { at: performance.now(), uuid: event.data.uuid ?? "" });
      } catch {
        // Counted as an attempt only.
      }
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    get attempts() {
      return state.attempts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchOutbound(ctx: BenchContext): Promise<OutboundBenchResult> {
  const { events, perSecond, timeoutMs } = ctx.options.outbound;
  const good = [await receiver(200), await receiver(200)];
  const failing = await receiver(500);
  const port = await freePorts(...SERVER_PORTS);
  const dataDir = mkdtempSync(path.join(ctx.tempRoot, "outbound-"));
  const dashboard = await startDashboard({
    root: ctx.options.root,
    distDir: ctx.distDir,
    port,
    sandboxPort: ctx.sandbox.port,
    apiKey: ctx.apiKey,
    dataDir,
  });
  let result: Omit<OutboundBenchResult, "stagesMs">;
  try {
    const admin = await signIn(dashboard.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    for (const r of [...good, failing]) {
      const made = await admin.json("/api/webhook-endpoints", { method: "POST", body: JSON.stringify({ url: r.url, eventTypes: ["payment.received"] }) });
      if (made.status !== 201) throw new Error(`endpoint ${r.url}: HTTP ${made.status} ${made.message}`);
    }
    const sent = await sendPayments(`${dashboard.url}/api/webhooks/peer-transfer`, ctx.apiKey, events, perSecond);
    const first = Math.min(...sent.map((s) => s.at));
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline && good.some((r) => r.arrivals.size < sent.length)) await sleep(100);
    const byUuid = new Map(sent.map((s) => [s.uuid, s.at]));
    const latencies: number[] = [];
    let last = 0;
    for (const r of good)
      for (const a of r.arrivals.values()) {
        const at = byUuid.get(a.uuid);
        if (at !== undefined) latencies.push(Math.max(0, a.at - at));
        last = Math.max(last, a.at);
      }
    const complete = good.every((r) => r.arrivals.size >= sent.length);
    result = {
      events: sent.length,
      goodReceived: good.map((r) => r.arrivals.size),
      allGoodWithinSeconds: complete ? round((last - first) / 1000, 1) : null,
      firstAttemptMs: summarize(latencies),
      failingAttempts: failing.attempts,
    };
  } finally {
    await dashboard.stop();
    for (const r of [...good, failing]) await r.close();
  }
  const stagesMs = await deliveryStages(
    dataDir,
    good.map((r) => r.url),
  );
  if (stagesMs)
    ctx.log(
      `webhooks out: stages p50/p95 ms: dispatch ${stagesMs.dispatch.p50}/${stagesMs.dispatch.p95}, delivery ${stagesMs.delivery.p50}/${stagesMs.delivery.p95}, attempt ${stagesMs.attempt.p50}/${stagesMs.attempt.p95}`,
    );
  return { ...result, stagesMs };
}

/** The stages of each good delivery made at its first attempt (see `stagesMs`), from the stopped dashboard's database. */
async function deliveryStages(dataDir: string, goodUrls: string[]): Promise<OutboundBenchResult["stagesMs"]> {
  const database = await openDatabase({ kind: "pglite", dataDir }, { migrate: false });
  try {
    const rows = await queryRows<{ dispatch: number; delivery: number; attempt: number }>(
      database.db,
      sql`select extract(epoch from e.dispatched_at - e.created_at) * 1000 as dispatch,
                 extract(epoch from d.created_at - e.dispatched_at) * 1000 as delivery,
                 extract(epoch from d.delivered_at - d.created_at) * 1000 as attempt
          from outbound_deliveries d join events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id
          where d.status = 'delivered' and d.attempts = 1 and w.url in (${sql.join(
            goodUrls.map((u) => sql`${u}`),
            sql`, `,
          )})`,
    );
    if (rows.length === 0) return null;
    const of = (key: "dispatch" | "delivery" | "attempt") => summarize(rows.map((r) => Number(r[key])));
    return { dispatch: of("dispatch"), delivery: of("delivery"), attempt: of("attempt") };
  } finally {
    await database.close();
  }
}

import "server-only";

import { writeAudit } from "@/lib/audit/write";
import type { Db } from "@/lib/db/client";
import type { OutboundDeliveryRow, WebhookEndpointRow } from "@/lib/db/schema";
import { tellAdmins } from "@/lib/notifications/notices";

import { findDelivery, giveUp, recordAttempts, type AttemptRecord } from "./deliveries";
import { addressMode, disableEndpoint, findEndpoints, markWarned, noteAttempts, signingSecrets, type AttemptOutcome } from "./endpoints";
import { postDelivery, type PostOutcome } from "./post";
import { failingVerdict, MAX_ATTEMPTS, nextDelayMs, parseRetryAfter } from "./schedule";
import { signDelivery } from "./sign";

// One attempt of one delivery (docs/architecture.md "Outgoing webhooks"): signed afresh (the timestamp is now's, the
// webhook-id the event's), posted through the address guard, and its answer recorded; what comes next (another attempt,
// the endpoint turned off, its admins told) is decided here and handed to the caller to queue.

export type AttemptResult = { kind: "skipped" } | { kind: "delivered" } | { kind: "retry"; attempt: number; at: Date } | { kind: "failed"; why: string };

export interface AttemptDeps {
  db: Db;
  now?: () => Date;
  random?: () => number;
  post?: typeof postDelivery;
}

const describe = (outcome: PostOutcome): string =>
  outcome.kind === "answered"
    ? `The endpoint answered ${outcome.status}.`
    : outcome.kind === "refused"
      ? `Not sent: ${outcome.reason}`
      : `No answer: ${outcome.reason}`;

export async function attemptDelivery(
  deps: AttemptDeps,
  deliveryId: string,
  round: number,
  attempt: number,
  // The row as the caller just read it (the attempt job reads it for the endpoint's cap); read here when absent.
  known?: OutboundDeliveryRow,
): Promise<AttemptResult> {
  const delivery = known ?? (await findDelivery(deps.db, deliveryId));
  const [result] = await attemptDeliveries(deps, [{ deliveryId, round, attempt }], {
    deliveries: new Map(delivery ? [[delivery.id, delivery]] : []),
    endpoints: delivery ? await findEndpoints(deps.db, [delivery.endpointId]) : new Map(),
  });
  return result ?? { kind: "skipped" };
}

export interface AttemptItem {
  deliveryId: string;
  round: number;
  attempt: number;
}

/** What a batch of attempts needs, read beforehand in one statement (`findDeliveriesWithEndpoints`). */
export interface AttemptRows {
  deliveries: Map<string, OutboundDeliveryRow>;
  endpoints: Map<string, WebhookEndpointRow>;
}

/** Each endpoint's outcomes of a batch. */
type Noted = Map<string, { endpoint: WebhookEndpointRow; outcomes: AttemptOutcome[]; gone: boolean }>;

/**
 * A batch of attempts, side by side: each posted (through `run`, the endpoint's cap: null = not run now, answered as
 * null for the caller to put back); then, in one transaction, every answer is recorded in one statement, each
 * endpoint's outcomes are noted once and `inCommit` queues what follows (so on the embedded database the batch's
 * statements wait their turn once); after it, what the outcomes decide (410, 4 or 5 days failing) is done. Answers each
 * item's result in order.
 */
export async function attemptDeliveries(
  deps: AttemptDeps,
  items: readonly AttemptItem[],
  rows: AttemptRows,
  run: <T>(endpointId: string, work: () => Promise<T>) => Promise<T | null> = (_, work) => work(),
  inCommit: (tx: Db, results: readonly (AttemptResult | null)[]) => Promise<void> = async () => undefined,
): Promise<(AttemptResult | null)[]> {
  const { db } = deps;
  const posted = await Promise.all(
    items.map(async ({ deliveryId, round, attempt }): Promise<Posted | AttemptResult | null> => {
      const delivery = rows.deliveries.get(deliveryId);
      // A resend or recover starts another round (its attempts numbered from 1 again, on the full schedule): an
      // attempt of an older round, or of a delivery no longer pending, does nothing.
      if (!delivery || delivery.status !== "pending" || delivery.round !== round) return { kind: "skipped" };
      const endpoint = rows.endpoints.get(delivery.endpointId);
      if (!endpoint || !endpoint.enabled) {
        const why = endpoint
          ? `The endpoint is turned off${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ""}; nothing was sent.`
          : "The endpoint was deleted; nothing was sent.";
        await giveUp(db, deliveryId, round, why);
        return { kind: "failed", why };
      }
      return run(endpoint.id, () => post(deps, delivery, endpoint, attempt));
    }),
  );
  const answered = posted.flatMap((p) => (p && "delivery" in p ? [p] : []));
  const { results, noted } = await db.transaction(async (tx) => {
    const recorded = await recordAttempts(
      tx,
      answered.map((p) => ({ id: p.delivery.id, round: p.delivery.round, record: p.record })),
    );
    const byEndpoint: Noted = new Map();
    const results = posted.map((p): AttemptResult | null => {
      if (!p || !("delivery" in p)) return p;
      // Not recorded: a resend since made this attempt stale.
      if (!recorded.has(p.delivery.id)) return { kind: "skipped" };
      const entry = byEndpoint.get(p.endpoint.id) ?? { endpoint: p.endpoint, outcomes: [], gone: false };
      entry.outcomes.push({ delivered: p.result.kind === "delivered", at: p.record.at });
      entry.gone ||= p.gone;
      byEndpoint.set(p.endpoint.id, entry);
      return p.result;
    });
    const noted: { endpoint: WebhookEndpointRow; after: WebhookEndpointRow | null; gone: boolean; at: Date }[] = [];
    // In endpoint id order: two batches noting the same endpoints in one transaction each lock their rows in the same
    // order, so on Postgres neither waits on the other for ever.
    for (const { endpoint, outcomes, gone } of [...byEndpoint.values()].sort((a, b) => a.endpoint.id.localeCompare(b.endpoint.id))) {
      const at = outcomes.reduce((latest, o) => (o.at > latest ? o.at : latest), outcomes[0]?.at ?? new Date());
      noted.push({ endpoint, after: await noteAttempts(tx, endpoint, outcomes), gone, at });
    }
    await inCommit(tx, results);
    return { results, noted };
  });
  // After the commit: turning an endpoint off tells its admins, whose e-mails are queued on the job engine's own
  // connection.
  for (const { endpoint, after, gone, at } of noted) {
    if (gone) await turnOff(db, endpoint, "The endpoint answered 410 Gone, which asks for no more deliveries.", at);
    else if (after?.failingSince) await watchFailing(db, after, at);
  }
  return results;
}

/** One attempt posted: what to record, and what it means if recorded. */
interface Posted {
  delivery: OutboundDeliveryRow;
  endpoint: WebhookEndpointRow;
  record: AttemptRecord;
  result: AttemptResult;
  gone: boolean;
}

/** Signs and posts one attempt: its record, and what follows from it. */
async function post(deps: AttemptDeps, delivery: OutboundDeliveryRow, endpoint: WebhookEndpointRow, attempt: number): Promise<Posted> {
  const now = deps.now ?? (() => new Date());
  const at = now();
  const headers = signDelivery({ id: delivery.eventId, timestamp: at, body: delivery.body, secrets: signingSecrets(endpoint, at) });
  const outcome = await (deps.post ?? postDelivery)({ url: endpoint.url, headers, body: delivery.body, mode: addressMode() });
  const delivered = outcome.kind === "answered" && outcome.status >= 200 && outcome.status < 300;
  const gone = outcome.kind === "answered" && outcome.status === 410;
  const retryAfter = outcome.kind === "answered" ? parseRetryAfter(outcome.retryAfter, at) : null;
  const delay = delivered || gone ? null : nextDelayMs(attempt, retryAfter, deps.random);
  const next = delay === null ? null : new Date(at.getTime() + delay);
  const record: AttemptRecord = {
    attempt,
    at,
    statusCode: outcome.kind === "answered" ? outcome.status : null,
    response: outcome.kind === "answered" ? outcome.bodyExcerpt : null,
    error: delivered ? null : describe(outcome),
    outcome: delivered ? { status: "delivered" } : next ? { status: "pending", next } : { status: "failed" },
  };
  const base = { delivery, endpoint, record, gone };
  if (delivered) return { ...base, result: { kind: "delivered" } };
  if (next && !gone) return { ...base, result: { kind: "retry", attempt: attempt + 1, at: next } };
  return {
    ...base,
    result: { kind: "failed", why: attempt >= MAX_ATTEMPTS ? `Failed ${MAX_ATTEMPTS} times: ${describe(outcome)}` : describe(outcome) },
  };
}

async function turnOff(db: Db, endpoint: WebhookEndpointRow, reason: string, at: Date): Promise<void> {
  if (!(await disableEndpoint(db, endpoint.id, reason))) return;
  await writeAudit(db, { action: "webhook_endpoint.disabled", target: endpoint.id, detail: { url: endpoint.url, reason, automatic: true } });
  await tellAdmins(db, {
    key: `webhook-endpoint:${endpoint.id}:disabled:${at.toISOString()}`,
    type: "webhook_endpoint.disabled",
    title: `Webhook endpoint turned off: ${endpoint.url}`,
    body: `${reason}\nTurn it on again on the webhooks page once it works, and re-send what failed.`,
    link: "/developers/webhooks",
  });
}

/** 4 days failing: its admins are told once; 5 days: it is turned off (and they are told). */
async function watchFailing(db: Db, endpoint: WebhookEndpointRow, at: Date): Promise<void> {
  const verdict = failingVerdict(endpoint.failingSince, endpoint.warnedAt, at);
  if (verdict === "disable") await turnOff(db, endpoint, "No delivery has succeeded for 5 days.", at);
  if (verdict === "warn" && (await markWarned(db, endpoint.id, at)))
    await tellAdmins(db, {
      key: `webhook-endpoint:${endpoint.id}:failing:${endpoint.failingSince?.toISOString() ?? ""}`,
      type: "webhook_endpoint.failing",
      title: `Webhook endpoint failing for 4 days: ${endpoint.url}`,
      body: "No delivery has succeeded for 4 days. It is turned off after 5 days without a success.",
      link: "/developers/webhooks",
    });
}

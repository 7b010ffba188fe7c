import "server-only";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { EventType } from "@/lib/client/events/catalogue";
import { MAX_ENDPOINTS, type DeliveryView, type EndpointCreate, type EndpointPatch, type EndpointView } from "@/lib/client/outbound/schemas";
import type { Db } from "@/lib/db/client";

import { queueAttempt } from "./attempt.job";
import { ensureDelivery, failedSince, findDelivery, startRound, toDeliveryView } from "./deliveries";
import {
  addressMode,
  countEndpoints,
  findEndpoint,
  insertEndpoint,
  listEndpoints,
  lockEndpointCount,
  markDeleted,
  openWebhookSecret,
  rotateEndpointSecret,
  toEndpointView,
  updateEndpoint,
} from "./endpoints";
import { sampleEvent } from "./samples";
import { newWebhookSecret } from "./secret";
import { checkEndpointUrl } from "./url-policy";

// An admin's outgoing webhooks (docs/architecture.md "Outgoing webhooks"), whichever door they come through: each use
// case authorizes the actor, changes, writes its audit row and answers a typed outcome the route turns into an answer.

type NotFound = { kind: "not_found" };
type BadUrl = { kind: "invalid_url"; message: string };

const by = (actor: Actor) => ({ actor: auditActorOf(actor), ip: auditIpOf(actor) });

export async function listEndpointViews(db: Db, actor: Actor): Promise<EndpointView[]> {
  authorize(actor, "webhooks.read");
  return (await listEndpoints(db)).map(toEndpointView);
}

export async function endpointView(db: Db, actor: Actor, id: string): Promise<EndpointView | null> {
  authorize(actor, "webhooks.read");
  const row = await findEndpoint(db, id);
  return row ? toEndpointView(row) : null;
}

/** At most MAX_ENDPOINTS, however many are made at once; the URL checked (https in live mode; a literal private address refused). The secret is answered once. */
export async function createEndpoint(
  db: Db,
  actor: Actor,
  input: EndpointCreate,
): Promise<{ kind: "created"; endpoint: EndpointView; secret: string } | BadUrl | { kind: "limit" }> {
  authorize(actor, "webhooks.manage");
  const url = checkEndpointUrl(input.url, addressMode());
  if (!url.ok) return { kind: "invalid_url", message: url.message };
  const secret = newWebhookSecret();
  const row = await db.transaction(async (tx) => {
    // One create at a time counts and inserts (a transaction-level lock): two at once never both see 19 and make 21.
    await lockEndpointCount(tx);
    if ((await countEndpoints(tx)) >= MAX_ENDPOINTS) return null;
    const made = await insertEndpoint(tx, {
      url: url.url,
      description: input.description,
      eventTypes: input.eventTypes === "all" ? null : [...input.eventTypes],
      enabled: input.enabled,
      secret,
      createdBy: actor.kind === "staff" ? actor.id : actor.kind === "api_key" ? actor.ownerId : null,
    });
    await writeAudit(tx, { action: "webhook_endpoint.created", ...by(actor), target: made.id, detail: { url: made.url, eventTypes: input.eventTypes } });
    return made;
  });
  if (!row) return { kind: "limit" };
  return { kind: "created", endpoint: toEndpointView(row), secret };
}

/** Turning one on again starts a fresh spell: its reason and failing marks are cleared. */
export async function changeEndpoint(
  db: Db,
  actor: Actor,
  id: string,
  patch: EndpointPatch,
): Promise<{ kind: "updated"; endpoint: EndpointView } | NotFound | BadUrl> {
  authorize(actor, "webhooks.manage");
  const before = await findEndpoint(db, id);
  if (!before) return { kind: "not_found" };
  let url: string | undefined;
  if (patch.url !== undefined) {
    const checked = checkEndpointUrl(patch.url, addressMode());
    if (!checked.ok) return { kind: "invalid_url", message: checked.message };
    url = checked.url;
  }
  const turnedOn = patch.enabled === true && !before.enabled;
  const row = await updateEndpoint(db, id, {
    ...(url !== undefined ? { url } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.eventTypes !== undefined ? { eventTypes: patch.eventTypes === "all" ? null : [...patch.eventTypes] } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(turnedOn ? { disabledReason: null, failingSince: null, warnedAt: null } : {}),
  });
  if (!row) return { kind: "not_found" };
  await writeAudit(db, { action: "webhook_endpoint.updated", ...by(actor), target: id, detail: { url: row.url, changed: Object.keys(patch) } });
  return { kind: "updated", endpoint: toEndpointView(row) };
}

export async function deleteEndpoint(db: Db, actor: Actor, id: string): Promise<{ kind: "deleted" } | NotFound> {
  authorize(actor, "webhooks.manage");
  const row = await markDeleted(db, id);
  if (!row) return { kind: "not_found" };
  await writeAudit(db, { action: "webhook_endpoint.deleted", ...by(actor), target: id, detail: { url: row.url } });
  return { kind: "deleted" };
}

/** A new secret, answered once; the old one keeps signing beside it for `overlapHours`. */
export async function rotateSecret(
  db: Db,
  actor: Actor,
  id: string,
  overlapHours: number,
): Promise<{ kind: "rotated"; endpoint: EndpointView; secret: string } | NotFound> {
  authorize(actor, "webhooks.manage");
  const secret = newWebhookSecret();
  const row = await rotateEndpointSecret(db, id, secret, overlapHours);
  if (!row) return { kind: "not_found" };
  await writeAudit(db, { action: "webhook_endpoint.secret_rotated", ...by(actor), target: id, detail: { url: row.url, overlapHours } });
  return { kind: "rotated", endpoint: toEndpointView(row), secret };
}

export async function revealSecret(db: Db, actor: Actor, id: string): Promise<{ kind: "revealed"; secret: string } | NotFound> {
  authorize(actor, "webhooks.manage");
  const row = await findEndpoint(db, id);
  if (!row) return { kind: "not_found" };
  await writeAudit(db, { action: "webhook_endpoint.secret_revealed", ...by(actor), target: id, detail: { url: row.url } });
  return { kind: "revealed", secret: openWebhookSecret(row.secretSealed) };
}

/** A sample event of `type` to this endpoint only (no other endpoint and no notification hears it). */
export async function sendTestEvent(db: Db, actor: Actor, id: string, type: EventType): Promise<{ kind: "queued"; delivery: DeliveryView } | NotFound> {
  authorize(actor, "webhooks.manage");
  const endpoint = await findEndpoint(db, id);
  if (!endpoint) return { kind: "not_found" };
  const delivery = await ensureDelivery(db, id, sampleEvent(type));
  await writeAudit(db, { action: "webhook_endpoint.test_sent", ...by(actor), target: id, detail: { url: endpoint.url, type, eventId: delivery.eventId } });
  await queueAttempt({ deliveryId: delivery.id, round: delivery.round, attempt: 1 });
  return { kind: "queued", delivery: toDeliveryView(delivery) };
}

/** The same body and webhook-id again, as a new round of attempts; refused while one is still pending. */
export async function resendDelivery(
  db: Db,
  actor: Actor,
  deliveryId: string,
): Promise<{ kind: "queued"; delivery: DeliveryView } | NotFound | { kind: "pending" }> {
  authorize(actor, "webhooks.manage");
  const before = await findDelivery(db, deliveryId);
  if (!before) return { kind: "not_found" };
  const endpoint = await findEndpoint(db, before.endpointId);
  if (!endpoint) return { kind: "not_found" };
  const row = await startRound(db, deliveryId);
  if (!row) return { kind: "pending" };
  await writeAudit(db, {
    action: "webhook_delivery.resent",
    ...by(actor),
    target: deliveryId,
    detail: { url: endpoint.url, eventId: row.eventId, eventType: row.eventType },
  });
  await queueAttempt({ deliveryId: row.id, round: row.round, attempt: 1 });
  return { kind: "queued", delivery: toDeliveryView(row) };
}

/** Every failed delivery to the endpoint since `since`, queued again (same bodies and ids). */
export async function recoverSince(db: Db, actor: Actor, endpointId: string, since: Date): Promise<{ kind: "queued"; count: number } | NotFound> {
  authorize(actor, "webhooks.manage");
  const endpoint = await findEndpoint(db, endpointId);
  if (!endpoint) return { kind: "not_found" };
  let count = 0;
  for (const failed of await failedSince(db, endpointId, since)) {
    const row = await startRound(db, failed.id);
    if (!row) continue;
    await queueAttempt({ deliveryId: row.id, round: row.round, attempt: 1 });
    count += 1;
  }
  await writeAudit(db, {
    action: "webhook_endpoint.recovered",
    ...by(actor),
    target: endpointId,
    detail: { url: endpoint.url, since: since.toISOString(), count },
  });
  return { kind: "queued", count };
}

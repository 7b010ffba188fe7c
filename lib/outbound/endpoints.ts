import "server-only";

import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";

import { openSecret, sealSecret } from "@/lib/auth/secret-box";
import type { EndpointView } from "@/lib/client/outbound/schemas";
import type { EventType } from "@/lib/client/events/catalogue";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { outboundDeliveries, webhookEndpoints, type OutboundDeliveryRow, type WebhookEndpointRow } from "@/lib/db/schema";

import type { AddressMode } from "./address-policy";

// The endpoints' table (docs/architecture.md "Outgoing webhooks"): the one writer of webhook_endpoints. Secrets are
// sealed with their own key derived from AUTH_SECRET (never stored in plaintext), opened only to sign or to reveal.

const PURPOSE = "fundboard webhook signing secret v1";

export const sealWebhookSecret = (secret: string): string => sealSecret(secret, getConfig().authSecret, PURPOSE);
export const openWebhookSecret = (sealed: string): string => openSecret(sealed, getConfig().authSecret, PURPOSE);

/** Where this deployment may deliver: loopback and private in sandbox mode, or with WEBHOOK_ALLOW_PRIVATE=1. */
export function addressMode(): AddressMode {
  const config = getConfig();
  return { sandbox: config.sandbox, allowPrivate: config.webhookAllowPrivate };
}

export function toEndpointView(row: WebhookEndpointRow): EndpointView {
  const secret = openWebhookSecret(row.secretSealed);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes ?? "all",
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
    secretHint: `whsec_…${secret.slice(-4)}`,
    previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    failingSince: row.failingSince?.toISOString() ?? null,
  };
}

/** The secrets that sign at `at`: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(row: WebhookEndpointRow, at: Date = new Date()): string[] {
  const secrets = [openWebhookSecret(row.secretSealed)];
  if (row.previousSecretSealed && row.previousSecretUntil && row.previousSecretUntil > at) secrets.push(openWebhookSecret(row.previousSecretSealed));
  return secrets;
}

const live = isNull(webhookEndpoints.deletedAt);

export async function listEndpoints(db: Db): Promise<WebhookEndpointRow[]> {
  return db.select().from(webhookEndpoints).where(live).orderBy(asc(webhookEndpoints.createdAt));
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), live))
    .limit(1);
  return row ?? null;
}

/**
 * The deliveries among `ids` and their live endpoints, by id, in one statement: an attempt batch's one read before it
 * posts (on the embedded database each statement waits its turn behind the payments arriving).
 */
export async function findDeliveriesWithEndpoints(
  db: Db,
  ids: readonly string[],
): Promise<{ deliveries: Map<string, OutboundDeliveryRow>; endpoints: Map<string, WebhookEndpointRow> }> {
  const deliveries = new Map<string, OutboundDeliveryRow>();
  const endpoints = new Map<string, WebhookEndpointRow>();
  if (ids.length === 0) return { deliveries, endpoints };
  const rows = await db
    .select({ delivery: outboundDeliveries, endpoint: webhookEndpoints })
    .from(outboundDeliveries)
    .leftJoin(webhookEndpoints, and(eq(webhookEndpoints.id, outboundDeliveries.endpointId), live))
    .where(inArray(outboundDeliveries.id, [...ids]));
  for (const { delivery, endpoint } of rows) {
    deliveries.set(delivery.id, delivery);
    if (endpoint) endpoints.set(endpoint.id, endpoint);
  }
  return { deliveries, endpoints };
}

/** The live endpoints among `ids`, by id, in one statement. */
export async function findEndpoints(db: Db, ids: readonly string[]): Promise<Map<string, WebhookEndpointRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.id, [...ids]), live));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Every enabled endpoint (the deliveries' consumer reads them once a dispatch pass). */
export async function enabledEndpoints(db: Db): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(live, eq(webhookEndpoints.enabled, true)));
}

/** Whether the endpoint takes events of this type (null: every type). */
export function wantsType(endpoint: Pick<WebhookEndpointRow, "eventTypes">, type: EventType): boolean {
  return endpoint.eventTypes === null || endpoint.eventTypes.includes(type);
}

/**
 * Holds every other caller of this until the transaction `tx` ends (a transaction-level advisory lock, on Postgres and
 * PGlite alike): a create counts the live endpoints and inserts under it, so the cap of 20 holds when creates race.
 */
export async function lockEndpointCount(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${"webhook-endpoints:count"}, 0))`);
}

export async function countEndpoints(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(live);
  return Number(row?.n ?? 0);
}

export async function insertEndpoint(
  db: Db,
  values: { url: string; description: string; eventTypes: string[] | null; enabled: boolean; secret: string; createdBy: string | null },
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      url: values.url,
      description: values.description,
      eventTypes: values.eventTypes,
      enabled: values.enabled,
      secretSealed: sealWebhookSecret(values.secret),
      createdBy: values.createdBy,
    })
    .returning();
  if (!row) throw new Error("endpoint insert returned nothing");
  return row;
}

export async function updateEndpoint(
  db: Db,
  id: string,
  set: Partial<Pick<WebhookEndpointRow, "url" | "description" | "eventTypes" | "enabled" | "disabledReason" | "failingSince" | "warnedAt">>,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.id, id), live))
    .returning();
  return row ?? null;
}

/** Deleted endpoints stay (their deliveries' history), never signing or receiving again. */
export async function markDeleted(db: Db, id: string): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ deletedAt: new Date(), enabled: false })
    .where(and(eq(webhookEndpoints.id, id), live))
    .returning();
  return row ?? null;
}

/** A new secret; the current one keeps signing for `overlapHours` (0: stops at once). */
export async function rotateEndpointSecret(db: Db, id: string, secret: string, overlapHours: number, now = new Date()): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecretSealed: overlapHours > 0 ? webhookEndpoints.secretSealed : null,
      previousSecretUntil: overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null,
      secretSealed: sealWebhookSecret(secret),
    })
    .where(and(eq(webhookEndpoints.id, id), live))
    .returning();
  return row ?? null;
}

export interface AttemptOutcome {
  delivered: boolean;
  at: Date;
}

/** A success this close after the last one noted is not written again: a burst would otherwise write the row per batch. */
export const SUCCESS_NOTE_GRAIN_MS = 5_000;

/**
 * Attempts' outcomes on their endpoint (`endpoint` as the batch read it), noted in one statement as if one by one in
 * time order: a success clears the failing spell; a failure starts one if none is open (so the spell starts at the
 * first failure after the last success). Nothing is written when nothing would change: a failure while a spell is
 * open, or a success within SUCCESS_NOTE_GRAIN_MS of the last one noted with no spell or warning to clear.
 */
export async function noteAttempts(db: Db, endpoint: WebhookEndpointRow, outcomes: readonly AttemptOutcome[]): Promise<WebhookEndpointRow | null> {
  if (outcomes.length === 0) return null;
  const successes = outcomes.filter((o) => o.delivered).map((o) => o.at.getTime());
  const lastSuccess = successes.length > 0 ? Math.max(...successes) : null;
  const failuresAfter = outcomes.filter((o) => !o.delivered && (lastSuccess === null || o.at.getTime() > lastSuccess)).map((o) => o.at.getTime());
  const firstFailure = failuresAfter.length > 0 ? new Date(Math.min(...failuresAfter)) : null;
  if (lastSuccess === null && endpoint.failingSince) return endpoint;
  const noted = endpoint.lastSuccessAt?.getTime();
  if (
    lastSuccess !== null &&
    !firstFailure &&
    !endpoint.failingSince &&
    !endpoint.warnedAt &&
    noted !== undefined &&
    lastSuccess - noted < SUCCESS_NOTE_GRAIN_MS
  )
    return endpoint;
  const [row] = await db
    .update(webhookEndpoints)
    .set(
      lastSuccess !== null
        ? { lastSuccessAt: new Date(lastSuccess), failingSince: firstFailure, warnedAt: null }
        : { failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${(firstFailure ?? new Date()).toISOString()}::timestamptz)` },
    )
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return row ?? null;
}

/** Turns an endpoint off with the reason (410, or 5 days failing); false when it was off already. */
export async function disableEndpoint(db: Db, id: string, reason: string): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** Marks the 4-day warning given; false when it was given already this spell. */
export async function markWarned(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ warnedAt: at })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.warnedAt)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

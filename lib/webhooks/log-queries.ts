import "server-only";

import { desc, inArray, sql } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { webhookDeliveries } from "@/lib/db/schema";

// docs/architecture.md: no page's time grows with the delivery log, so every read here is bounded (an
// indexed LIMIT/OFFSET with a capped page, a capped count, one hour of rows for the banner).

export const DELIVERY_PAGE_SIZE = 50;
/** Past this many rows the total reads "10,000+"; counting further would grow with the log. */
export const DELIVERY_COUNT_CAP = 10_000;
/** The oldest page shown: OFFSET stays below DELIVERY_COUNT_CAP rows. */
export const DELIVERY_MAX_PAGE = DELIVERY_COUNT_CAP / DELIVERY_PAGE_SIZE;

type Outcome = (typeof webhookDeliveries.$inferSelect)["outcome"];

/**
 * The delivery log's filter, as finance staff ask it (`?outcome=` in the URL): each choice is one or more stored
 * outcomes. "rejected" is every refusal of a signed message (unreadable, too large, wrong format, not a payment).
 */
export const DELIVERY_FILTERS = {
  accepted: { label: "Accepted (payment recorded)", outcomes: ["recorded"] },
  duplicate: { label: "Repeats", outcomes: ["duplicate"] },
  bad_signature: { label: "Bad signature", outcomes: ["bad_signature"] },
  rejected: { label: "Rejected (unreadable, too large, not a payment)", outcomes: ["bad_payload", "too_large", "bad_content_type", "unknown_type"] },
  error: { label: "Failed on our side", outcomes: ["error"] },
} as const satisfies Record<string, { label: string; outcomes: readonly Outcome[] }>;

export type DeliveryFilter = keyof typeof DELIVERY_FILTERS;

/** A `?outcome=` value as a filter; anything else (absent, unknown) is no filter. */
export function deliveryFilterParam(value: unknown): DeliveryFilter | null {
  return typeof value === "string" && Object.hasOwn(DELIVERY_FILTERS, value) ? (value as DeliveryFilter) : null;
}

export interface DeliveryListItem {
  id: number;
  receivedAt: string;
  outcome: Outcome;
  httpStatus: number;
  eventType: string | null;
  uuid: string | null;
  body: string | null;
  remoteAddr: string | null;
  detail: string | null;
  /** Deliveries this row stands for: more than 1 on a folded row of rejected deliveries. */
  count: number;
}

export interface DeliveryPage {
  items: DeliveryListItem[];
  /** The page shown, at most DELIVERY_MAX_PAGE. */
  page: number;
  /** Rows in the log, counted up to DELIVERY_COUNT_CAP + 1. */
  total: number;
  /** True when the log holds more than DELIVERY_COUNT_CAP rows (show "10,000+"). */
  totalCapped: boolean;
}

/** The sentence of a folded row of rejected deliveries, made from its count when read. */
export function foldedDetail(count: number, remoteAddr: string | null): string {
  return remoteAddr === null
    ? `${count} more from other sources this hour (folded: too many sources to list each)`
    : `${count} more from this source this hour (folded)`;
}

export async function listDeliveries(db: Db, requestedPage: number, filter: DeliveryFilter | null = null): Promise<DeliveryPage> {
  const page = Math.min(Math.max(1, Math.trunc(requestedPage) || 1), DELIVERY_MAX_PAGE);
  // On the (outcome, received_at) index; the count stays capped the same way.
  const where = filter ? inArray(webhookDeliveries.outcome, [...DELIVERY_FILTERS[filter].outcomes]) : undefined;
  const [items, counted] = await Promise.all([
    db
      .select({
        id: webhookDeliveries.id,
        receivedAt: webhookDeliveries.receivedAt,
        outcome: webhookDeliveries.outcome,
        httpStatus: webhookDeliveries.httpStatus,
        eventType: webhookDeliveries.eventType,
        uuid: webhookDeliveries.uuid,
        body: webhookDeliveries.body,
        remoteAddr: webhookDeliveries.remoteAddr,
        detail: webhookDeliveries.detail,
        count: webhookDeliveries.count,
        foldKey: webhookDeliveries.foldKey,
      })
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.receivedAt), desc(webhookDeliveries.id))
      .limit(DELIVERY_PAGE_SIZE)
      .offset((page - 1) * DELIVERY_PAGE_SIZE),
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from ${webhookDeliveries} ${where ? sql`where ${where}` : sql``} limit ${DELIVERY_COUNT_CAP + 1}) as capped`,
    ),
  ]);
  const n = counted[0]?.n ?? 0;
  return {
    items: items.map(({ foldKey, ...d }) => ({
      ...d,
      detail: foldKey ? foldedDetail(d.count, d.remoteAddr) : d.detail,
      receivedAt: d.receivedAt.toISOString(),
    })),
    page,
    total: Math.min(n, DELIVERY_COUNT_CAP),
    totalCapped: n > DELIVERY_COUNT_CAP,
  };
}

export const BANNER_TOP_SOURCES = 5;

export interface BadSignatureSummary {
  /** Deliveries with a bad signature in the last hour, folded ones included. */
  total: number;
  /** The busiest sources, most first; `addr` is null for folded "other sources" and unknown ones. */
  sources: { addr: string | null; count: number }[];
}

/**
 * Bad signatures in the last hour and where they came from (docs/architecture.md): three or more mean a wrong
 * SERVICE_API_KEY or forged deliveries, and the sources tell the two apart.
 */
export async function recentBadSignatures(db: Db, now = new Date()): Promise<BadSignatureSummary> {
  const since = new Date(now.getTime() - 3_600_000);
  const rows = await queryRows<{ addr: string | null; n: number; total: number }>(
    db,
    sql`select addr, n, (sum(n) over ())::int as total
        from (
          select ${webhookDeliveries.remoteAddr} as addr, sum(${webhookDeliveries.count})::int as n
          from ${webhookDeliveries}
          where ${webhookDeliveries.outcome} = 'bad_signature' and ${webhookDeliveries.receivedAt} >= ${since.toISOString()}
          group by 1
        ) as by_source
        order by n desc, addr
        limit ${BANNER_TOP_SOURCES}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    sources: rows.map((r) => ({ addr: r.addr, count: Number(r.n) })),
  };
}

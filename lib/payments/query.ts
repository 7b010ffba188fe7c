import "server-only";

import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import type { Db } from "@/lib/db/client";
import { likeContains } from "@/lib/db/like";
import { fundRequests, payments } from "@/lib/db/schema";

import { settledByDay, totalsInRange, type TimeRange } from "./hour-totals";
import type { PaymentFilter } from "@/lib/client/payments/filters";
import { toPaymentView, type PaymentPage, type PaymentTotals, type PaymentView, type SettledDay } from "./view";
import { addDays, dayOf } from "@/lib/client/time/zone";
import { instantsOfDays } from "@/lib/client/time/day-range";

export const PAYMENT_PAGE_SIZE = 25;
/** The payments page's chart: this many days, today included. */
export const SETTLED_CHART_DAYS = 30;
export const CSV_MAX_ROWS = 50_000;

function where(f: PaymentFilter, timeZone: string): SQL | undefined {
  const parts: SQL[] = [];
  if (f.verified) parts.push(eq(payments.verification, f.verified));
  if (f.tag) parts.push(eq(payments.customerTag, f.tag));
  if (f.q) {
    const like = likeContains(f.q);
    const match = or(ilike(payments.customerName, like), ilike(payments.customerTag, like), ilike(payments.description, like), ilike(payments.uuid, like));
    if (match) parts.push(match);
  }
  const { from, to } = instantsOfDays(f, timeZone);
  if (from) parts.push(gte(payments.receivedAt, from));
  if (to) parts.push(lt(payments.receivedAt, to));
  return parts.length ? and(...parts) : undefined;
}

/** The filter's date range as instants, when it filters by nothing else (its totals then come from kept days). */
function dateOnly(f: PaymentFilter, timeZone: string): TimeRange | null {
  if (f.verified || f.tag || f.q) return null;
  return instantsOfDays(f, timeZone);
}

async function scannedTotals(db: Db, condition: SQL | undefined): Promise<PaymentTotals> {
  const [totals] = await db
    .select({
      n: count(),
      amount: sql<string>`coalesce(sum(${payments.amount}), 0)::numeric(20,2)::text`,
      fees: sql<string>`coalesce(sum(${payments.fees}), 0)::numeric(20,2)::text`,
      settled: sql<string>`coalesce(sum(${payments.settledAmount}), 0)::numeric(20,2)::text`,
    })
    .from(payments)
    .where(condition);
  return { count: totals?.n ?? 0, amount: totals?.amount ?? "0.00", fees: totals?.fees ?? "0.00", settled: totals?.settled ?? "0.00" };
}

/**
 * The payments list's one read (GET /api/payments, and the prefetch of the payments page and the overview's recent
 * payments): one page of payments and exact totals for the whole filter, from the kept hour totals when only dates
 * filter (the page as it opens, at any number of payments), else summed over the matching rows.
 */
export async function readPaymentPage(db: Db, f: PaymentFilter, role: Role, timeZone: string, pageSize = PAYMENT_PAGE_SIZE): Promise<PaymentPage> {
  const condition = where(f, timeZone);
  const range = dateOnly(f, timeZone);
  const [rows, totals] = await Promise.all([
    db
      .select({ payment: payments, requestId: fundRequests.requestId, businessReference: fundRequests.businessReference })
      .from(payments)
      .leftJoin(fundRequests, eq(fundRequests.id, payments.fundRequestId))
      .where(condition)
      .orderBy(desc(payments.receivedAt), desc(payments.uuid))
      .limit(pageSize)
      .offset((f.page - 1) * pageSize),
    range ? totalsInRange(db, range) : scannedTotals(db, condition),
  ]);
  return {
    items: rows.map((r) => toPaymentView(r.payment, r.requestId, role, r.businessReference)),
    page: f.page,
    pageSize,
    total: totals.count,
    totals,
  };
}

export async function paymentsForCsv(db: Db, f: PaymentFilter, role: Role, timeZone: string): Promise<PaymentView[]> {
  const rows = await db
    .select({ payment: payments, requestId: fundRequests.requestId, businessReference: fundRequests.businessReference })
    .from(payments)
    .leftJoin(fundRequests, eq(fundRequests.id, payments.fundRequestId))
    .where(where(f, timeZone))
    .orderBy(desc(payments.receivedAt), desc(payments.uuid))
    .limit(CSV_MAX_ROWS);
  return rows.map((r) => toPaymentView(r.payment, r.requestId, role, r.businessReference));
}

export async function getPayment(db: Db, uuid: string, role: Role): Promise<PaymentView | null> {
  const [row] = await db
    .select({ payment: payments, requestId: fundRequests.requestId, businessReference: fundRequests.businessReference })
    .from(payments)
    .leftJoin(fundRequests, eq(fundRequests.id, payments.fundRequestId))
    .where(eq(payments.uuid, uuid.toLowerCase()))
    .limit(1);
  return row ? toPaymentView(row.payment, row.requestId, role, row.businessReference) : null;
}

/**
 * The chart's one read (GET /api/payments/settled-per-day and the payments page's prefetch): settled amount per
 * day in `timeZone` for the last `days` days, zero-filled, oldest first.
 */
export async function settledPerDay(db: Db, timeZone: string, days = SETTLED_CHART_DAYS, now = new Date()): Promise<SettledDay[]> {
  const today = dayOf(now, timeZone);
  const byDay = await settledByDay(db, days, timeZone, now);
  return Array.from({ length: days }, (_, i) => {
    const day = addDays(today, i - (days - 1));
    return { day, settled: byDay.get(day) ?? "0.00" };
  });
}

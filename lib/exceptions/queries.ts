import "server-only";

// The inbox's reads (docs/architecture.md "Closing the books"; docs/architecture.md "One data path per screen"): one page read for the page and its
// route, the navigation's count and one exception with its link suggestions. Counts stop at a cap, so a page costs
// the same with 100 exceptions as with 100,000.
import { and, asc, desc, eq, gte, lt, sql } from "drizzle-orm";

import type { ExceptionListQuery, ExceptionPage, ExceptionView, LinkSuggestion } from "@/lib/client/exceptions/view";
import { payerKey } from "@/lib/client/payers/tag";
import { instantsOfDays } from "@/lib/client/time/day-range";
import { getConfig } from "@/lib/config";
import { queryRows, type Db } from "@/lib/db/client";
import { exceptions, fundRequests, payments, type ExceptionRow } from "@/lib/db/schema";

export const EXCEPTION_PAGE_SIZE = 25;
/** The list's total stops here ("1,000+"): counting further costs every page more than a finance team gains from the figure. */
export const EXCEPTION_COUNT_CAP = 1_000;
/**
 * The navigation's badge stops here ("99+"): a badge past that says "many" as well as an exact figure would, and
 * counting at most 100 rows keeps the count's cost the same however many are open (bench/README.md, benchmark 13).
 */
export const OPEN_BADGE_CAP = 99;
const SUGGESTIONS = 10;

export function toExceptionView(row: ExceptionRow): ExceptionView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    openedAt: row.openedAt.toISOString(),
    paymentUuid: row.paymentUuid,
    requestId: row.requestId,
    tag: row.tag,
    amount: row.amount,
    detail: row.detail,
    resolvedBy: row.resolvedByName,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    note: row.note,
  };
}

async function cappedCount(db: Db, where: ReturnType<typeof sql>, cap: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (select 1 from ${exceptions} where ${where} limit ${cap + 1}) c`);
  return row?.n ?? 0;
}

/** The navigation's count of open exceptions, up to OPEN_BADGE_CAP (`capped`: more than that). */
export async function countOpenExceptions(db: Db): Promise<{ open: number; capped: boolean }> {
  const n = await cappedCount(db, sql`${exceptions.status} = 'open'`, OPEN_BADGE_CAP);
  return { open: Math.min(n, OPEN_BADGE_CAP), capped: n > OPEN_BADGE_CAP };
}

/**
 * A page of the inbox: open ones oldest first (the longest waiting on top), resolved ones latest first; with `day`,
 * those opened on that day in `timeZone`.
 */
export async function readExceptionPage(db: Db, query: ExceptionListQuery, timeZone?: string): Promise<ExceptionPage> {
  const opened = query.day ? instantsOfDays({ from: query.day, to: query.day }, timeZone ?? getConfig().timeZone) : null;
  const where = and(
    eq(exceptions.status, query.status),
    query.kind ? eq(exceptions.kind, query.kind) : undefined,
    opened?.from ? gte(exceptions.openedAt, opened.from) : undefined,
    opened?.to ? lt(exceptions.openedAt, opened.to) : undefined,
  );
  const order = query.status === "open" ? [asc(exceptions.openedAt), asc(exceptions.id)] : [desc(exceptions.resolvedAt), desc(exceptions.id)];
  const [rows, total, open] = await Promise.all([
    db
      .select()
      .from(exceptions)
      .where(where)
      .orderBy(...order)
      .limit(EXCEPTION_PAGE_SIZE)
      .offset((query.page - 1) * EXCEPTION_PAGE_SIZE),
    cappedCount(db, where ?? sql`true`, EXCEPTION_COUNT_CAP),
    countOpenExceptions(db),
  ]);
  return {
    items: rows.map(toExceptionView),
    page: query.page,
    pageSize: EXCEPTION_PAGE_SIZE,
    total: Math.min(total, EXCEPTION_COUNT_CAP),
    totalCapped: total > EXCEPTION_COUNT_CAP,
    open: open.open,
    openCapped: open.capped,
  };
}

/**
 * One exception, and for a payment linking gave up on the requests it could be linked to: pending or accepted
 * requests to the payment's tag with no payment, the same amount first, then the newest.
 */
export async function readException(db: Db, id: string): Promise<{ exception: ExceptionView; suggestions: LinkSuggestion[] } | null> {
  const [row] = await db.select().from(exceptions).where(eq(exceptions.id, id)).limit(1);
  if (!row) return null;
  return { exception: toExceptionView(row), suggestions: row.status === "open" ? await linkSuggestions(db, row) : [] };
}

async function linkSuggestions(db: Db, row: ExceptionRow): Promise<LinkSuggestion[]> {
  if (row.kind !== "unlinked_payment" && row.kind !== "duplicate_payment") return [];
  const [payment] = row.paymentUuid ? await db.select().from(payments).where(eq(payments.uuid, row.paymentUuid)).limit(1) : [];
  if (!payment || payment.fundRequestId) return [];
  const key = payerKey(payment.peerTag ?? payment.customerTag);
  const sameAmount = sql<boolean>`${fundRequests.amount} = ${payment.amount}`;
  const found = await db
    .select({
      requestId: fundRequests.requestId,
      tag: fundRequests.tag,
      amount: fundRequests.amount,
      status: fundRequests.status,
      createdAt: fundRequests.createdAt,
      sameAmount,
    })
    .from(fundRequests)
    .where(
      and(
        sql`lower(regexp_replace(${fundRequests.tag}, '^@', '')) = ${key}`,
        sql`${fundRequests.status} in ('pending', 'accepted')`,
        sql`${fundRequests.paymentUuid} is null`,
        sql`${fundRequests.requestId} is not null`,
      ),
    )
    .orderBy(desc(sameAmount), desc(fundRequests.createdAt))
    .limit(SUGGESTIONS);
  return found.flatMap((r) =>
    r.requestId && (r.status === "pending" || r.status === "accepted")
      ? [{ requestId: r.requestId, tag: r.tag, amount: r.amount, status: r.status, createdAt: r.createdAt.toISOString(), sameAmount: r.sameAmount }]
      : [],
  );
}

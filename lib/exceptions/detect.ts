import "server-only";

import { inArray, sql, type SQL } from "drizzle-orm";

import { queryRows, type Db } from "@/lib/db/client";
import { exceptions } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";

import { toExceptionView } from "./queries";

// Opens and closes exceptions (docs/architecture.md "Closing the books"; docs/architecture.md, "Closing the books"). Each kind is one condition
// over the payments or requests table: a row that meets it gets its exception once (the unique kind+subject key
// decides, so repeats and two instances open one), and an open exception whose subject no longer meets it is
// closed with what cleared it. One a person resolved stays resolved; one that closed by itself opens again, the same
// row, if its payment meets the condition again.

export interface ScanScope {
  /** Only these payments (the follow-up of a payment, a re-verify, a person's link); absent: every row. */
  paymentUuids?: string[];
  now: Date;
  /** An accepted request with no payment this long after its acceptance is a lost webhook. */
  lostWebhookMinutes: number;
}

export interface ScanResult {
  opened: number;
  closed: number;
}

// The payment's tag as linking compares it with a request's (lib/payments/link.ts).
const PAYER_TAG = sql.raw(`coalesce(p.peer_tag, p.customer_tag)`);
const NOT_LINKED = sql.raw(`p.fund_request_id is null and p.link_note is not null`);
// A request to the same tag for the same amount already has its payment: this one is a second payment.
const PAID_TWIN = sql`exists (select 1 from fund_requests r where r.tag = ${PAYER_TAG} and r.amount = p.amount and r.payment_uuid is not null and r.payment_uuid <> p.uuid)`;
// The same tag already paid a request of the same campaign family (a chase of someone who had paid, say).
const FAMILY_TWIN = sql.raw(`exists (
  select 1 from fund_requests r
  join campaign_rows cr on cr.fund_request_id = r.id
  join campaigns c on c.id = cr.campaign_id
  join campaigns c2 on coalesce(c2.family_id, c2.id) = coalesce(c.family_id, c.id)
  join campaign_rows cr2 on cr2.campaign_id = c2.id and cr2.fund_request_id is not null and cr2.fund_request_id <> r.id
  join fund_requests r2 on r2.id = cr2.fund_request_id and lower(r2.tag) = lower(r.tag)
  join payments p2 on p2.fund_request_id = r2.id
  where r.id = p.fund_request_id and (p2.received_at, p2.uuid) < (p.received_at, p.uuid)
)`);

// An exception the scan leaves as it is: open, resolved by a person, or reopened by one. One that closed by itself
// opens again (the same row) when its cause comes back: a link the service later undid, say.
const KEPT = sql.raw(`(x.status = 'open' or x.resolved_by_name is not null or x.reopened_at is not null)`);

type PaymentKind = "verification_failed" | "amount_mismatch" | "unlinked_payment" | "duplicate_payment";

/** Each payment kind's condition over `p` (payments), and what its detail says. */
const PAYMENT_KINDS: Record<PaymentKind, { when: SQL; detail: SQL; cleared: SQL }> = {
  verification_failed: {
    when: sql.raw(`p.verification = 'failed' and not p.verification_mismatch`),
    detail: sql.raw(`coalesce(p.verification_error, 'The verify host could not confirm this payment.')`),
    cleared: sql.raw(`case when p.verification = 'verified' then 'Verified at the verify host.' else 'No longer a failed verification.' end`),
  },
  amount_mismatch: {
    when: sql.raw(`p.verification = 'failed' and p.verification_mismatch`),
    detail: sql.raw(`coalesce(p.verification_error, 'The verify host disagrees on the amounts.')`),
    cleared: sql.raw(`case when p.verification = 'verified' then 'The verify host now agrees on the amounts.' else 'The amounts no longer disagree.' end`),
  },
  unlinked_payment: {
    when: sql`${NOT_LINKED} and not ${PAID_TWIN}`,
    detail: sql.raw(`p.link_note`),
    cleared: sql.raw(
      `case when p.fund_request_id is not null then 'Linked to its request.' else 'Counted as a second payment instead (its own exception).' end`,
    ),
  },
  duplicate_payment: {
    when: sql`((${NOT_LINKED} and ${PAID_TWIN}) or (p.fund_request_id is not null and ${FAMILY_TWIN}))`,
    detail: sql`case when p.fund_request_id is null
      then 'A second payment of NGN ' || to_char(p.amount, 'FM999,999,999,990.00') || ' from @' || ${PAYER_TAG} || ': a request to this tag for this amount already has its payment. Refund it or link it by hand.'
      else 'A second payment from @' || ${PAYER_TAG} || ' in one campaign and its ask-again rounds: this tag had already paid. Refund the extra payment or keep it as credit.' end`,
    cleared: sql.raw(`'No longer a second payment.'`),
  },
};

const KIND_NAMES = Object.keys(PAYMENT_KINDS) as PaymentKind[];

// The per-minute full scan is a safety net (each payment is scanned by its own follow-up, re-verify and link, and a
// request's lost webhook is closed by its payment's): it looks only at payments received, and requests decided, in
// the last days, and opens at most BATCH of each kind a pass (the next minute's pass goes on), so a database of
// years (or an upgrade onto one) never holds the engine for long. The family join is the costly one: two days.
const FULL_SCAN_DAYS = 7;
const FAMILY_SCAN_DAYS = 2;
const BATCH = 1_000;

function uuidFilter(scope: ScanScope, column: string): SQL {
  if (!scope.paymentUuids) return sql.raw("true");
  const uuids = scope.paymentUuids.map((u) => sql`${u.toLowerCase()}`);
  return sql`${sql.raw(column)} in (${sql.join(uuids, sql`, `)})`;
}

function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** A full scan's payments: received in its window (the family join's is shorter); a scoped scan's: all it names. */
function window(scope: ScanScope, kind: PaymentKind): SQL {
  if (scope.paymentUuids) return sql.raw("true");
  return sql`p.received_at > ${daysBefore(scope.now, kind === "duplicate_payment" ? FAMILY_SCAN_DAYS : FULL_SCAN_DAYS)}`;
}

/** A full scan closes what it opened in its window; older ones close through their payment's own scans. */
function openedWindow(scope: ScanScope): SQL {
  return scope.paymentUuids ? sql.raw("true") : sql`e.opened_at > ${daysBefore(scope.now, FULL_SCAN_DAYS)}`;
}

/** Opens what is newly the case and closes what no longer is; each moving transaction announces `exceptions.changed`. */
export async function scanExceptions(db: Db, scope: ScanScope): Promise<ScanResult> {
  if (scope.paymentUuids?.length === 0) return { opened: 0, closed: 0 };
  let opened = 0;
  let closed = 0;
  for (const kind of KIND_NAMES) {
    const k = PAYMENT_KINDS[kind];
    const rows = await withEvents(db, "exception.opened", (tx) =>
      queryRows<{ id: string }>(
        tx,
        sql`insert into exceptions (kind, subject, payment_uuid, request_id, tag, amount, detail, opened_at)
        select ${kind}, p.uuid, p.uuid, r.request_id, ${PAYER_TAG}, p.amount, ${k.detail}, ${scope.now}
        from payments p left join fund_requests r on r.id = p.fund_request_id
        where ${uuidFilter(scope, "p.uuid")} and ${window(scope, kind)} and ${k.when}
          and not exists (select 1 from exceptions x where x.kind = ${kind} and x.subject = p.uuid and ${KEPT})
        limit ${BATCH}
        on conflict (kind, subject) do update set status = 'open', opened_at = excluded.opened_at, detail = excluded.detail,
          request_id = excluded.request_id, resolved_at = null, note = null
          where exceptions.status = 'resolved' and exceptions.resolved_by_name is null
        returning id`,
      ),
    );
    opened += rows.length;
    const cleared = await withEvents(db, "exception.resolved", (tx) =>
      queryRows<{ id: string }>(
        tx,
        sql`update exceptions e set status = 'resolved', resolved_at = ${scope.now},
          note = coalesce((select ${k.cleared} from payments p where p.uuid = e.payment_uuid), 'The payment is no longer recorded.')
        where e.kind = ${kind} and e.status = 'open' and e.reopened_at is null and ${uuidFilter(scope, "e.payment_uuid")} and ${openedWindow(scope)}
          and not exists (select 1 from payments p where p.uuid = e.payment_uuid and ${k.when})
        returning id`,
      ),
    );
    closed += cleared.length;
  }
  const lost = await scanLostWebhooks(db, scope);
  opened += lost.opened;
  closed += lost.closed;
  return { opened, closed };
}

/**
 * `accepted_without_payment`: the service said accepted, and no payment came within the minutes allowed. A scan
 * of some payments only closes: the requests those payments were linked to have their payment now.
 */
async function scanLostWebhooks(db: Db, scope: ScanScope): Promise<ScanResult> {
  const cutoff = new Date(scope.now.getTime() - scope.lostWebhookMinutes * 60_000);
  const subjects = scope.paymentUuids
    ? sql`e.subject in (select p.fund_request_id::text from payments p where ${uuidFilter(scope, "p.uuid")} and p.fund_request_id is not null)`
    : sql.raw("true");
  const opened = scope.paymentUuids
    ? []
    : await withEvents(db, "exception.opened", (tx) =>
        queryRows<{ id: string }>(
          tx,
          sql`insert into exceptions (kind, subject, request_id, tag, amount, detail, opened_at)
      select 'accepted_without_payment', r.id::text, r.request_id, r.tag, r.amount,
        'The service says @' || r.tag || ' accepted this request, but no payment notice arrived within ' || ${scope.lostWebhookMinutes}::int || ' minutes: the webhook may be lost. Check the wallet for the money, and ask the service to send the notice again.',
        ${scope.now}
      from fund_requests r
      where r.status = 'accepted' and r.payment_uuid is null and r.request_id is not null
        and coalesce(r.decided_at, r.updated_at) between ${daysBefore(scope.now, FULL_SCAN_DAYS)} and ${cutoff}
        and not exists (select 1 from exceptions x where x.kind = 'accepted_without_payment' and x.subject = r.id::text)
      limit ${BATCH}
      on conflict (kind, subject) do nothing
      returning id`,
        ),
      );
  const closed = await withEvents(db, "exception.resolved", (tx) =>
    queryRows<{ id: string }>(
      tx,
      sql`update exceptions e set status = 'resolved', resolved_at = ${scope.now},
        note = coalesce((select case when r.payment_uuid is not null then 'The payment arrived.' else 'The request is no longer accepted at the service.' end
          from fund_requests r where r.id = e.subject::uuid), 'The request is no longer recorded.')
      where e.kind = 'accepted_without_payment' and e.status = 'open' and e.reopened_at is null and ${subjects} and ${openedWindow(scope)}
        and not exists (select 1 from fund_requests r where r.id = e.subject::uuid and r.status = 'accepted' and r.payment_uuid is null)
      returning id`,
    ),
  );
  return { opened: opened.length, closed: closed.length };
}

/**
 * Runs one opening or closing statement with the events of the exceptions it moved, in one transaction
 * (docs/architecture.md "Events"): each moved exception's `exception.opened` or `exception.resolved`.
 */
async function withEvents(
  db: Db,
  type: "exception.opened" | "exception.resolved",
  statement: (tx: Db) => Promise<{ id: string }[]>,
): Promise<{ id: string }[]> {
  return db.transaction(async (tx) => {
    const moved = await statement(tx);
    if (moved.length === 0) return moved;
    const rows = await tx
      .select()
      .from(exceptions)
      .where(
        inArray(
          exceptions.id,
          moved.map((m) => m.id),
        ),
      );
    for (const row of rows) await appendEvent(tx, type, toExceptionView(row));
    await announce(tx, { type: "exceptions.changed" });
    return moved;
  });
}

/**
 * A pay page took over 10× its usual hour (docs/decisions.md "Pay pages"): one `pay_page_surge` a page an hour (the
 * kind-and-subject constraint decides), for a person to look at and turn the page off if it is abuse.
 */
export async function openPayPageSurge(db: Db, surge: { pageId: string; slug: string; hour: Date; count: number; usual: number }): Promise<boolean> {
  const detail = `/pay/${surge.slug} took ${surge.count} submissions in the hour to ${surge.hour.toISOString()}, over 10 times its usual ${surge.usual.toFixed(1)} an hour. Turn the page off if this is not expected.`;
  const moved = await withEvents(db, "exception.opened", (tx) =>
    tx
      .insert(exceptions)
      .values({ kind: "pay_page_surge", subject: `${surge.pageId}@${surge.hour.toISOString()}`, detail })
      .onConflictDoNothing()
      .returning({ id: exceptions.id }),
  );
  return moved.length > 0;
}

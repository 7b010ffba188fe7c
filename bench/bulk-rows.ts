// Rows for the server-time benchmark, made in the database itself: one INSERT … SELECT generate_series per table
// (seconds for 100,000), spread over the last week the way a busy merchant's would be. Payments are verified and
// already noted as unlinked and older than an hour, so no background job (sweep, link retry) takes them up; delivery-log
// rows are mostly `recorded`, every 20th a `duplicate`, every 97th a `bad_signature` (no body), within the retention.
import { performance } from "node:perf_hooks";

import { sql } from "drizzle-orm";

import { openDatabase, queryRows, type DbTarget } from "@/lib/db/client";

const WEEK_SECONDS = 7 * 24 * 3600;
const CUSTOMERS = 2_000;

export interface BulkRows {
  payments: number;
  deliveries: number;
  /** Rows in each table afterwards (the bench's own and the bulk ones). */
  paymentsAfter: number;
  deliveriesAfter: number;
  ms: number;
}

/** A year, for the day book's rows (bench/day-book.ts). */
export const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Adds `payments` payment rows from `customers` payers (spread over the last `spreadSeconds`) and `deliveries` delivery-log rows (numbered from `firstIndex`,
 * so batches never collide); the caller makes sure nobody else has the database open (PGlite).
 */
export async function addBulkRows(
  target: DbTarget,
  payments: number,
  deliveries: number,
  firstIndex = 1,
  customers = CUSTOMERS,
  spreadSeconds = WEEK_SECONDS,
): Promise<BulkRows> {
  const started = performance.now();
  const database = await openDatabase(target, { migrate: false });
  try {
    const { db } = database;
    const paymentStep = spreadSeconds / Math.max(1, payments);
    await db.execute(sql`
      insert into payments (uuid, type, amount, actual_amount, settled_amount, fees, description, paypoint, customer_uuid, customer_name,
        customer_tag, customer_email, customer_phone, customer_avatar, peer_tag, verification, verification_attempts, verified_at, link_note, received_at)
      select md5('bench-payment-' || g)::uuid::text, 'peer-transfer.success', a, a, a - f, f, 'Bench payment ' || g, false,
        md5('bench-customer-' || c)::uuid::text, 'Bench Customer ' || c, 'bench.cust' || c, 'cust' || c || '@example.com',
        '+234803' || lpad((g % 10000000)::text, 7, '0'), 'http://127.0.0.1:4010/avatars/bench.cust' || c || '.svg', 'bench.cust' || c,
        'verified', 1, t + interval '1 second', 'Bench row: no open request to this tag; not linked.', t
      from (
        select g, g % ${customers} as c, (100 + g % 9000)::numeric(18, 2) as a, round((100 + g % 9000) * 0.01, 2)::numeric(18, 2) as f,
          now() - interval '65 minutes' - make_interval(secs => g * ${paymentStep}::float8) as t
        from generate_series(${firstIndex}::int, ${firstIndex + payments - 1}::int) as g
      ) as s`);
    const deliveryStep = WEEK_SECONDS / Math.max(1, deliveries);
    if (deliveries > 0)
      await db.execute(sql`
      insert into webhook_deliveries (received_at, outcome, http_status, event_type, uuid, body, remote_addr, detail)
      select t, outcome, case when outcome = 'bad_signature' then 401 else 200 end,
        case when outcome = 'bad_signature' then null else 'peer-transfer.success' end,
        case when outcome = 'bad_signature' then null else u end,
        case when outcome = 'bad_signature' then null else json_build_object(
          'type', 'peer-transfer.success', 'uuid', u, 'amount', a, 'actual_amount', a, 'settled_amount', a - f, 'description', 'Bench payment ' || g,
          'fees', f, 'paypoint', false,
          'customer', json_build_object('uuid', md5('bench-customer-' || c)::uuid::text, 'avatar', 'http://127.0.0.1:4010/avatars/bench.cust' || c || '.svg',
            'name', 'Bench Customer ' || c, 'email', 'cust' || c || '@example.com', 'phone', '+234803' || lpad((g % 10000000)::text, 7, '0'),
            'tag', 'bench.cust' || c, 'frequency', 1 + g % 7),
          'meta', json_build_object('peer_tag', 'bench.cust' || c, 'name', 'Bench Customer ' || c))::text end,
        '10.0.' || (g % 250) || '.' || (1 + g % 200), null
      from (
        select g, g % ${customers} as c, md5('bench-payment-' || g)::uuid::text as u, (100 + g % 9000)::numeric(18, 2) as a,
          round((100 + g % 9000) * 0.01, 2)::numeric(18, 2) as f,
          case when g % 97 = 0 then 'bad_signature' when g % 20 = 0 then 'duplicate' else 'recorded' end as outcome,
          now() - make_interval(secs => g * ${deliveryStep}::float8) as t
        from generate_series(${firstIndex}::int, ${firstIndex + deliveries - 1}::int) as g
      ) as s`);
    const [counts] = await queryRows<{ payments: number; deliveries: number }>(
      db,
      sql`select (select count(*) from payments)::int as payments, (select count(*) from webhook_deliveries)::int as deliveries`,
    );
    return {
      payments,
      deliveries,
      paymentsAfter: counts?.payments ?? 0,
      deliveriesAfter: counts?.deliveries ?? 0,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await database.close();
  }
}

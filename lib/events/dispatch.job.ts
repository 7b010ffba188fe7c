import "server-only";

import type PgBoss from "pg-boss";
import { asc, isNull, sql } from "drizzle-orm";
import { z } from "zod";

import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import type { Db } from "@/lib/db/client";
import { events } from "@/lib/db/schema";
import { defineJob, type Job } from "@/lib/jobs/define";
import { wakeWorkers } from "@/lib/jobs/engine";
import { derivedJobId } from "@/lib/jobs/ids";
import { jobsDb } from "@/lib/jobs/in-transaction";
import { waitForQuietIntake } from "@/lib/webhooks/intake-pressure";

import { wants, type ConsumerPayload, type EventConsumer } from "./consumer";

// Hands committed events to their durable consumers (docs/architecture.md "Events"): a chain of passes, one at a
// time across every instance, each queueing every consumer's job for the events not yet dispatched.

const QUEUE = "events-dispatch";
/**
 * A pass is due this long after the last one began its wait for a lull (that wait counts towards it): an event waits
 * at most this (plus the pass) before its consumers' jobs are queued. 250 ms, not 500: half a second was a quarter of
 * an outgoing webhook's 2 s to its first attempt; an idle pass is a few statements.
 */
const EVERY_MS = 250;
/**
 * The longest a pass waits for a lull in the payments arriving. A pass is a few statements for up to 200 events (the
 * consumers that do the work wait for their own lull), and an outgoing webhook's first attempt is due within 2 s.
 */
const YIELD_MAX_MS = 250;
/** A wake a little after the next pass is due (the database's clock decides when it is). */
const WAKE_MARGIN_MS = 10;
/** Events per pass: a burst is taken in slices, the chain continuing at once while more wait. */
const BATCH = 200;

/**
 * How long after a pass the next is due: at once while a burst waits (the pass took a full batch), else the rest of
 * EVERY_MS after the pass's wait for a lull (docs/decisions.md, "A pass every 250 ms, lull included").
 */
export function nextPassDelay(taken: number, waitedMs: number): number {
  return taken === BATCH ? 0 : Math.max(0, EVERY_MS - waitedMs);
}

/** The one id a consumer's job for (event, recipient) can have: queued twice, it is inserted once. */
export function consumerJobId(consumer: string, eventId: string, recipient: string): string {
  return derivedJobId(`event-consumer:${consumer}`, `${eventId}:${recipient}`);
}

/**
 * Queues each consumer's jobs for the oldest undispatched events and marks them dispatched, in one transaction: the
 * jobs and the mark commit together (a pass cut off commits neither), and on the embedded database the pass's
 * statements wait their turn behind the payments arriving once, not once each. Answers how many events it took.
 */
export async function dispatchEvents(db: Db, boss: PgBoss, consumers: readonly EventConsumer[], limit = BATCH): Promise<number> {
  const woken = new Map<string, number>();
  const taken = await db.transaction(async (tx) => {
    const rows = await tx.select().from(events).where(isNull(events.dispatchedAt)).orderBy(asc(events.id)).limit(limit);
    if (rows.length === 0) return 0;
    const jobs: PgBoss.JobInsert<ConsumerPayload>[] = [];
    // Each consumer reads what its recipients depend on once a pass, not once an event: a burst of payments is
    // hundreds of events. One after another: a transaction's connection runs one statement at a time.
    const deciders: { consumer: EventConsumer; recipients: (event: BusinessEvent) => string[] }[] = [];
    for (const consumer of consumers) deciders.push({ consumer, recipients: await consumer.recipientsFor(tx) });
    for (const row of rows) {
      const event = { id: row.id, type: row.type as EventType, createdAt: row.createdAt.toISOString(), data: row.data };
      for (const { consumer, recipients } of deciders) {
        if (!wants(consumer, event.type)) continue;
        for (const recipient of recipients(event)) {
          jobs.push({ id: consumerJobId(consumer.name, event.id, recipient), name: consumer.job.queue, data: { eventId: event.id, recipient } });
          woken.set(consumer.job.queue, (woken.get(consumer.job.queue) ?? 0) + 1);
        }
      }
    }
    // One statement for the pass's jobs (each queue's own policy applies; an id already queued is left alone).
    if (jobs.length > 0) await boss.insert(jobs, { db: jobsDb(tx) });
    await markDispatched(
      tx,
      rows.map((r) => r.id),
    );
    return rows.length;
  });
  for (const [queue, queued] of woken) wakeWorkers(queue, queued);
  return taken;
}

/**
 * Marks the events dispatched and gives each its place in the API's event log (`seq`, after every event dispatched
 * before, in id order): given after the event's commit, so a reader's cursor never passes an event that commits later.
 * Events already marked keep theirs; the unique index refuses two passes at once.
 */
async function markDispatched(db: Db, ids: string[]): Promise<void> {
  await db.execute(sql`
    update events set dispatched_at = now(), seq = base.last + ordered.n
    from (select id, row_number() over (order by id) as n from events
          where id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}) and dispatched_at is null) as ordered,
         (select coalesce(max(seq), 0) as last from events) as base
    where events.id = ordered.id`);
}

/** The dispatcher for these consumers (lib/server/workers.ts lists them). */
export function eventsDispatchJob(consumers: readonly EventConsumer[]): Job<Record<string, never>> {
  return defineJob({
    queue: QUEUE,
    payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
    policy: {
      // "stately": one pass waiting and one running across every instance; a second dispatcher adds nothing.
      policy: "stately",
      // A pass takes milliseconds; one lost with a killed instance expires after 30 s and is retried once at once.
      retryLimit: 1,
      retryDelay: 0,
      expireInSeconds: 30,
      retentionMinutes: 10,
    },
    // pg-boss polls every 0.5 s at the most often; this instance wakes its worker when the next pass falls due.
    work: { workers: 1, batchSize: 1, pollingIntervalSeconds: 0.5 },
    // Restarts the chain within a minute should it ever break.
    schedule: "* * * * *",
    kickOff: true,
    handler:
      ({ db, boss, signal }) =>
      async () => {
        let taken = 0;
        let waited = 0;
        try {
          // Payments arriving come first (their 200 is what the service waits on): a pass waits for a lull in this
          // instance's intake, at most YIELD_MAX_MS, as the payment follow-ups do.
          waited = await waitForQuietIntake(YIELD_MAX_MS);
          taken = await dispatchEvents(db, boss, consumers);
        } finally {
          const delay = nextPassDelay(taken, waited);
          if (!signal.aborted) {
            await boss.send(QUEUE, {}, { startAfter: new Date(Date.now() + delay) });
            setTimeout(() => wakeWorkers(QUEUE), delay + WAKE_MARGIN_MS).unref();
          }
        }
      },
  });
}

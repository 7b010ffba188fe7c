import "server-only";

import { and, eq, inArray } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import type { BusinessEvent } from "@/lib/client/events/catalogue";
import { nairaToKobo } from "@/lib/client/money/amount";
import type { Channel } from "@/lib/client/notifications/preferences";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { notifications, staff } from "@/lib/db/schema";
import { consumerPayload, loadEvents, type ConsumerPayload, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";
import { announce } from "@/lib/live/notify";
import { waitForQuietIntake } from "@/lib/webhooks/intake-pressure";

import { describeEvent } from "./content";
import { queueEmails } from "./email.job";
import { allPreferences, mergePreferences } from "./preferences";

// The notifications consumer (docs/architecture.md "Notifications"): for each event, every person whose preferences
// want it gets one notification row (unique per event and person) and, when they chose e-mail at once, one e-mail
// job; "digest" rows wait for the daily digest. Whether a person wants it is asked again when the job runs.

/**
 * The longest a batch of notifications waits for a lull in the payments arriving (then it runs anyway): a batch is a
 * few statements however many rows it makes, and an e-mail is due within seconds of its payment.
 */
const YIELD_MAX_MS = 250;

const EMAIL_STATE: Record<Exclude<Channel, "off">, "none" | "queued" | "digest"> = { dashboard: "none", email: "queued", digest: "digest" };

/** The channel a person gets this event on, by their preferences (or role defaults) and the payment threshold. */
function channelFor(prefs: ReturnType<typeof mergePreferences>, event: Pick<BusinessEvent, "type" | "data">): Channel {
  const channel = prefs.choices[event.type];
  if (channel === "off" || event.type !== "payment.received" || prefs.paymentThreshold === null) return channel;
  const paid = nairaToKobo(String((event.data as { actualAmount?: unknown }).actualAmount ?? "0"));
  const threshold = nairaToKobo(prefs.paymentThreshold);
  return paid !== null && threshold !== null && paid < threshold ? "off" : channel;
}

async function people(db: Db): Promise<{ id: string; role: Role }[]> {
  return db.select({ id: staff.id, role: staff.role }).from(staff).where(eq(staff.disabled, false));
}

type Decide = (event: Pick<BusinessEvent, "type" | "data">) => { id: string; channel: Channel }[];

/** Reads the people and their preferences once, and answers who each event is for, with their channel. */
export async function audienceOf(db: Db): Promise<Decide> {
  // One after another: the dispatcher asks inside its transaction, whose connection runs one statement at a time.
  const everyone = await people(db);
  const stored = await allPreferences(db);
  const prefs = everyone.map((p) => ({ id: p.id, prefs: mergePreferences(p.role, stored.get(p.id)) }));
  return (event) => prefs.map((p) => ({ id: p.id, channel: channelFor(p.prefs, event) })).filter((p) => p.channel !== "off");
}

/** Everyone the event is for, with their channel. */
export async function audience(db: Db, event: Pick<BusinessEvent, "type" | "data">): Promise<{ id: string; channel: Channel }[]> {
  return (await audienceOf(db))(event);
}

/** One person's notification of one event: made once (the unique pair), its e-mail queued when they chose it. */
export async function notifyPerson(db: Db, eventId: string, staffId: string): Promise<void> {
  await notifyAll(db, [{ eventId, recipient: staffId }]);
}

/**
 * A batch of the consumer's jobs: the people, their preferences and the events are read once for the batch, then the
 * batch's rows are inserted in one statement (unique per event and person) and their e-mails queued in one. Whether a
 * person still wants it (and is still enabled) is decided now, not at dispatch.
 */
async function notifyAll(db: Db, jobs: readonly ConsumerPayload[]): Promise<void> {
  const [decide, loaded] = await Promise.all([audienceOf(db), loadEvents(db, [...new Set(jobs.map((j) => j.eventId))])]);
  const timeZone = getConfig().timeZone;
  const contents = new Map<string, ReturnType<typeof describeEvent>>();
  const rows: (typeof notifications.$inferInsert)[] = [];
  const seen = new Set<string>();
  for (const job of jobs) {
    const event = loaded.get(job.eventId);
    const key = `${job.eventId}:${job.recipient}`;
    if (!event || seen.has(key)) continue;
    const channel = decide(event).find((p) => p.id === job.recipient)?.channel ?? "off";
    if (channel === "off") continue;
    seen.add(key);
    const content = contents.get(event.id) ?? describeEvent(event, timeZone);
    contents.set(event.id, content);
    rows.push({
      staffId: job.recipient,
      eventId: event.id,
      type: event.type,
      title: content.title,
      body: content.lines.join("\n"),
      link: content.link,
      createdAt: new Date(event.createdAt),
      email: EMAIL_STATE[channel],
    });
  }
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    const made = await tx
      .insert(notifications)
      .values(rows)
      .onConflictDoNothing({ target: [notifications.eventId, notifications.staffId] })
      .returning({ id: notifications.id, staffId: notifications.staffId });
    if (made.length > 0) await announce(tx, ...made.map((m) => ({ type: "notification.created" as const, staffId: m.staffId, id: m.id })));
  });
  // The batch's rows still waiting for their e-mail, made now or by a retried job: queued again under the same job
  // ids, so each is sent once.
  const queued = await db
    .select({ id: notifications.id, eventId: notifications.eventId, staffId: notifications.staffId })
    .from(notifications)
    .where(
      and(
        eq(notifications.email, "queued"),
        inArray(notifications.eventId, [...new Set(rows.map((r) => r.eventId))]),
        inArray(notifications.staffId, [...new Set(rows.map((r) => r.staffId))]),
      ),
    );
  const ids = queued.filter((q) => seen.has(`${q.eventId}:${q.staffId}`)).map((q) => q.id);
  if (ids.length > 0) await queueEmails(ids);
}

export const notifyConsumer: EventConsumer = {
  name: "notifications",
  // Every type: whom each reaches is the preferences' business (audience), not a list kept beside the catalogue.
  types: "all",
  recipientsFor: async (db) => {
    const decide = await audienceOf(db);
    return (event) => decide(event).map((p) => p.id);
  },
  job: defineJob({
    queue: "notify",
    payload: consumerPayload,
    policy: {
      policy: "standard",
      // Each act is a few statements; one lost with a killed instance expires after 60 s and is retried (3 times, 10 s apart).
      retryLimit: 3,
      retryDelay: 10,
      expireInSeconds: 60,
      retentionMinutes: 60,
    },
    // A burst of payments to many people: two workers on each instance keep the database's pool for the pages; a batch
    // of 100 reads the people and events once and writes its rows, announcements and e-mail jobs in a statement each
    // (1,000 payments to 5 people are 50 batches). The dispatcher wakes these workers when it queues their jobs; the
    // poll is the fallback (another instance's dispatch).
    work: { workers: 2, batchSize: 100, pollingIntervalSeconds: 2 },
    handler:
      ({ db }) =>
      async (jobs) => {
        // Payments arriving come first: a batch waits for a lull in this instance's intake, at most YIELD_MAX_MS.
        await waitForQuietIntake(YIELD_MAX_MS);
        await notifyAll(db, jobs);
      },
  }),
};

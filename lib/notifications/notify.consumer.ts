import "server-only";

import { and, eq } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import type { BusinessEvent } from "@/lib/client/events/catalogue";
import { nairaToKobo } from "@/lib/client/money/amount";
import type { Channel } from "@/lib/client/notifications/preferences";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { notifications, staff } from "@/lib/db/schema";
import { consumerPayload, loadEvent, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";
import { announce } from "@/lib/live/notify";

import { describeEvent } from "./content";
import { queueEmail } from "./email.job";
import { allPreferences, mergePreferences } from "./preferences";

// The notifications consumer (docs/architecture.md "Notifications"): for each event, every person whose preferences
// want it gets one notification row (unique per event and person) and, when they chose e-mail at once, one e-mail
// job; "digest" rows wait for the daily digest. Whether a person wants it is asked again when the job runs.

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

/** Everyone the event is for, with their channel. */
export async function audience(db: Db, event: Pick<BusinessEvent, "type" | "data">): Promise<{ id: string; channel: Channel }[]> {
  const [everyone, stored] = await Promise.all([people(db), allPreferences(db)]);
  return everyone.map((p) => ({ id: p.id, channel: channelFor(mergePreferences(p.role, stored.get(p.id)), event) })).filter((p) => p.channel !== "off");
}

/** One person's notification of one event: made once (the unique pair), its e-mail queued when they chose it. */
export async function notifyPerson(db: Db, eventId: string, staffId: string): Promise<void> {
  const event = await loadEvent(db, eventId);
  if (!event) return;
  const [person] = await db.select({ id: staff.id, role: staff.role, disabled: staff.disabled }).from(staff).where(eq(staff.id, staffId)).limit(1);
  if (!person || person.disabled) return;
  const channel = (await audience(db, event)).find((p) => p.id === staffId)?.channel ?? "off";
  if (channel === "off") return;
  const content = describeEvent(event, getConfig().timeZone);
  const row = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(notifications)
      .values({
        staffId,
        eventId,
        type: event.type,
        title: content.title,
        body: content.lines.join("\n"),
        link: content.link,
        createdAt: new Date(event.createdAt),
        email: EMAIL_STATE[channel],
      })
      .onConflictDoNothing({ target: [notifications.eventId, notifications.staffId] })
      .returning();
    if (made) await announce(tx, { type: "notification.created", staffId, id: made.id });
    return made;
  });
  // A retried job finds its row made: its e-mail is queued again under the same job id, so it is sent once.
  const [current] = row
    ? [row]
    : await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.eventId, eventId), eq(notifications.staffId, staffId)))
        .limit(1);
  if (current?.email === "queued") await queueEmail(current.id);
}

export const notifyConsumer: EventConsumer = {
  name: "notifications",
  // Every type: whom each reaches is the preferences' business (audience), not a list kept beside the catalogue.
  types: "all",
  recipients: async (db, event) => (await audience(db, event)).map((p) => p.id),
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
    // A burst of payments to many people: 2 × 4 at a time on each instance keeps the database's pool for the pages. The
    // dispatcher wakes these workers when it queues their jobs; the poll is the fallback (another instance's dispatch).
    work: { workers: 2, batchSize: 4, pollingIntervalSeconds: 2 },
    handler:
      ({ db }) =>
      async (jobs) => {
        for (const job of jobs) await notifyPerson(db, job.eventId, job.recipient);
      },
  }),
};

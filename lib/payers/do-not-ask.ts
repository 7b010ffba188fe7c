import "server-only";

// The one writer of do_not_ask (docs/architecture.md, "Owners"): marks and clears, and the check every way of
// asking (the form, the API, a campaign upload, a chase, a plan period) makes before asking a tag.
import { eq, inArray } from "drizzle-orm";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { appendEvent } from "@/lib/events/append";
import { payerKey } from "@/lib/client/payers/tag";
import type { Db } from "@/lib/db/client";
import { doNotAsk, type DoNotAskRow } from "@/lib/db/schema";

export async function markDoNotAsk(db: Db, tag: string, note: string, by: { id: string; name: string }): Promise<void> {
  const key = payerKey(tag);
  await db
    .insert(doNotAsk)
    .values({ tag: key, note, markedBy: by.id, markedByName: by.name })
    .onConflictDoUpdate({ target: doNotAsk.tag, set: { note, markedBy: by.id, markedByName: by.name, markedAt: new Date() } });
}

/**
 * A person marks or clears a tag (`payers.write`, docs/architecture.md "Actors"), with its audit row in the same
 * transaction; clearing a tag with no mark changes nothing and writes nothing. True when something changed.
 */
export async function setDoNotAsk(db: Db, actor: Actor, tag: string, change: { doNotAsk: boolean; note: string }): Promise<boolean> {
  authorize(actor, "payers.write");
  const who = requirePerson(actor);
  const by = { actor: auditActorOf(actor), ip: auditIpOf(actor) };
  const key = payerKey(tag);
  return db.transaction(async (tx) => {
    if (change.doNotAsk) {
      await markDoNotAsk(tx, key, change.note, who);
      await writeAudit(tx, { action: "payer.do_not_ask_marked", ...by, target: key, detail: { note: change.note } });
      await appendEvent(tx, "payer.updated", { tag: key, doNotAsk: true, note: change.note, markedBy: who.name });
      return true;
    }
    if (!(await clearDoNotAsk(tx, key))) return false;
    await writeAudit(tx, { action: "payer.do_not_ask_cleared", ...by, target: key });
    await appendEvent(tx, "payer.updated", { tag: key, doNotAsk: false, note: null, markedBy: null });
    return true;
  });
}

/** True when there was a mark to clear. */
export async function clearDoNotAsk(db: Db, tag: string): Promise<boolean> {
  const cleared = await db
    .delete(doNotAsk)
    .where(eq(doNotAsk.tag, payerKey(tag)))
    .returning({ tag: doNotAsk.tag });
  return cleared.length > 0;
}

/** The marks among `tags` (any spelling), by payer key. */
export async function doNotAskMarks(db: Db, tags: string[]): Promise<Map<string, DoNotAskRow>> {
  const keys = [...new Set(tags.map(payerKey))];
  if (keys.length === 0) return new Map();
  const rows = await db.select().from(doNotAsk).where(inArray(doNotAsk.tag, keys));
  return new Map(rows.map((r) => [r.tag, r]));
}

/** What a person is told when a marked tag is asked: who marked it and when (the day in `timeZone`). */
export function doNotAskMessage(mark: DoNotAskRow, timeZone: string): string {
  const day = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", year: "numeric" }).format(mark.markedAt);
  return `@${mark.tag} asked not to be asked: marked by ${mark.markedByName} on ${day}${mark.note ? ` (${mark.note})` : ""}`;
}

/** The refusal a marked tag gets from the form, the API and a campaign's send (null when it may be asked). */
export async function doNotAskRefusal(db: Db, tag: string, timeZone: string): Promise<string | null> {
  const mark = (await doNotAskMarks(db, [tag])).get(payerKey(tag));
  return mark ? doNotAskMessage(mark, timeZone) : null;
}

import { randomUUID } from "node:crypto";

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { deadPort, staffMember, useMailSink } from "@/tests/support/mail";
import type { Db } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { createMailTransport, type MailTransport } from "@/lib/mail/transport";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { claimDigests } from "./digest";
import { attemptDigest } from "./digest-email.job";
import { attemptEmail, EMAIL_RETRY_DELAYS_MS, type MailDeps } from "./email.job";
import { mailHealth, QUIET_MS } from "./health";
import { notifyPerson } from "./notify.consumer";

// What `/api/health` tells admins of e-mail (docs/architecture.md "Notifications"): failing as soon as attempts fail
// and the server accepts nothing, not only once an e-mail is given up on hours later; digests counted too; ok again at
// the first e-mail the server takes.

const LAGOS = "Africa/Lagos";

/** A notification of a new exception for `staffId`, its e-mail queued (admins' default). */
async function exceptionNotice(db: Db, staffId: string): Promise<string> {
  const opened = await db.transaction((tx) =>
    appendEvent(tx, "exception.opened", { id: randomUUID(), kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }),
  );
  await notifyPerson(db, opened.id, staffId);
  const [row] = await db
    .select({ id: notifications.id, email: notifications.email })
    .from(notifications)
    .where(and(eq(notifications.staffId, staffId), eq(notifications.eventId, opened.id)));
  if (row?.email !== "queued") throw new Error("no e-mail queued");
  return row.id;
}

/** A notification row as the e-mail job leaves it, at fixed times. */
async function row(db: Db, staffId: string, at: string, email: { state: "sent" | "queued" | "failed"; attempts: number; emailedAt?: string }): Promise<void> {
  await db.insert(notifications).values({
    staffId,
    eventId: `e-${randomUUID()}`,
    type: "exception.opened",
    title: "An exception opened",
    body: "",
    link: "/exceptions",
    createdAt: new Date(at),
    email: email.state,
    emailAttempts: email.attempts,
    emailError: email.state === "sent" ? null : "e-mail not sent, connection refused",
    emailedAt: email.emailedAt ? new Date(email.emailedAt) : null,
  });
}

describe.each(dbTargets())("e-mail's health on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });
  const { mailbox, transport } = useMailSink();
  let down: MailTransport;
  beforeAll(async () => {
    down = createMailTransport(`smtp://127.0.0.1:${await deadPort()}`, { from: "f@localhost", timeouts: { connectionTimeout: 2_000 } });
  });
  afterAll(() => down.close());
  const deps = (send: MailDeps["send"]): MailDeps => ({ db: database.db, send, appUrl: "https://dash.example.test", timeZone: LAGOS });
  const working = () => deps((m) => transport().send(m));
  const failing = () => deps((m) => down.send(m));
  const health = (now = new Date()) => mailHealth(database.db, now, true, LAGOS);

  it("says failing at the first failed attempt with nothing accepted since, and ok again once the server takes an e-mail", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    expect(await health()).toMatchObject({ status: "ok", failedLastDay: 0, retrying: 0, lastSentAt: null });

    // The server is down: the first attempt fails and waits a minute for the next. Not "ok" for 8.6 hours.
    const first = await exceptionNotice(db, admin.id);
    expect(await attemptEmail(failing(), first, 1, async () => undefined)).toBe("retry");
    const down1 = await health();
    expect(down1).toMatchObject({ status: "failing", failedLastDay: 0, retrying: 1, lastSentAt: null });
    expect(down1.message).toMatch(/failing/i);

    // The server is back: an e-mail accepted says so, though the first still waits for its retry.
    const second = await exceptionNotice(db, admin.id);
    expect(await attemptEmail(working(), second, 1, async () => undefined)).toBe("sent");
    const up = await health();
    expect(up).toMatchObject({ status: "ok", failedLastDay: 0, retrying: 1 });
    expect(up.lastSentAt).not.toBeNull();

    // Failing again: an e-mail made after the last one accepted fails.
    const third = await exceptionNotice(db, admin.id);
    expect(await attemptEmail(failing(), third, 1, async () => undefined)).toBe("retry");
    expect(await health()).toMatchObject({ status: "failing", retrying: 2 });
  });

  it("counts a digest that failed, and says failing until the server accepts one", async () => {
    const db = database.db;
    const viewer = await staffMember(db, "viewer");
    const [claim] = await claimDigests(db, "2026-03-10", LAGOS);
    if (!claim) throw new Error("no digest claimed");
    for (let attempt = 1; attempt <= EMAIL_RETRY_DELAYS_MS.length + 1; attempt++)
      await attemptDigest(failing(), claim.digestId, attempt, async () => undefined);
    // Its morning was 08:00 Lagos on the 11th; seen that afternoon.
    const afternoon = new Date("2026-03-11T15:00:00Z");
    expect(await health(afternoon)).toMatchObject({ status: "failing", failedLastDay: 1, retrying: 0, lastSentAt: null });
    // A day after its morning it no longer counts.
    expect(await health(new Date("2026-03-12T08:00:00Z"))).toMatchObject({ status: "ok", failedLastDay: 0 });

    // Another person's digest of the same day goes out: the server works.
    const other = await staffMember(db, "viewer");
    const [next] = (await claimDigests(db, "2026-03-10", LAGOS)).filter((c) => c.staffId === other.id);
    if (!next) throw new Error("no digest claimed");
    expect(await attemptDigest(working(), next.digestId, 1, async () => undefined)).toBe("sent");
    expect(mailbox.list(other.email)).toHaveLength(1);
    expect(await health(afternoon)).toMatchObject({ status: "ok", failedLastDay: 1 });
    expect(mailbox.list(viewer.email)).toEqual([]);
  });

  it(`says failing while an attempt failed and nothing was accepted in the last ${QUIET_MS / 60_000} minutes, whenever it was made`, async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    // Accepted at 11:40; an e-mail made at 11:30 (before it) failed and waits for its retry.
    await row(db, admin.id, "2026-03-11T11:00:00Z", { state: "sent", attempts: 1, emailedAt: "2026-03-11T11:40:00Z" });
    await row(db, admin.id, "2026-03-11T11:30:00Z", { state: "queued", attempts: 2 });
    // Neither an account disabled (failed with no attempt) nor an e-mail made more than a day ago counts.
    await db.insert(notifications).values({
      staffId: admin.id,
      eventId: `e-${randomUUID()}`,
      type: "exception.opened",
      title: "An exception opened",
      body: "",
      link: "/exceptions",
      createdAt: new Date("2026-03-11T11:50:00Z"),
      email: "failed",
      emailError: "The account is disabled.",
    });
    await row(db, admin.id, "2026-03-10T09:00:00Z", { state: "failed", attempts: 6 });

    expect(await health(new Date("2026-03-11T11:50:00Z"))).toMatchObject({
      status: "ok",
      retrying: 1,
      failedLastDay: 0,
      lastSentAt: "2026-03-11T11:40:00.000Z",
    });
    expect(await health(new Date("2026-03-11T12:00:00Z"))).toMatchObject({ status: "failing", retrying: 1, failedLastDay: 0 });

    // One made after the last accepted fails: failing at once.
    await row(db, admin.id, "2026-03-11T11:45:00Z", { state: "failed", attempts: 1 });
    expect(await health(new Date("2026-03-11T11:50:00Z"))).toMatchObject({ status: "failing", retrying: 1, failedLastDay: 1 });
    // Accepted since: ok, the failed one still counted for the day.
    await row(db, admin.id, "2026-03-11T11:46:00Z", { state: "sent", attempts: 1, emailedAt: "2026-03-11T11:48:00Z" });
    const ok = await health(new Date("2026-03-11T11:50:00Z"));
    expect(ok).toMatchObject({ status: "ok", retrying: 1, failedLastDay: 1 });
    expect(ok.message).toMatch(/1 e-mails failed in the last 24 hours/);
  });

  it("is off without SMTP_URL", async () => {
    expect(await mailHealth(database.db, new Date(), false, LAGOS)).toMatchObject({ status: "off" });
  });
});

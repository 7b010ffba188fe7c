import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";

import { deadPort, staffMember, useMailSink } from "@/tests/support/mail";
import { defaultPreferences } from "@/lib/client/notifications/preferences";
import type { Db } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { createMailTransport } from "@/lib/mail/transport";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { attemptEmail, EMAIL_RETRY_DELAYS_MS, markSent, messageIdOf, type MailDeps } from "./email.job";
import { audience, notifyPerson } from "./notify.consumer";
import { storePreferences } from "./preferences";

/** The one notification a person has for an event. */
async function notificationOf(db: Db, staffId: string, eventId: string): Promise<typeof notifications.$inferSelect> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.staffId, staffId), eq(notifications.eventId, eventId)));
  if (!row) throw new Error("no notification");
  return row;
}

const PAYMENT = {
  uuid: "0b4f3c1e-1111-4222-8333-444455556666",
  amount: "5000.00",
  actualAmount: "4990.50",
  settledAmount: "4890.50",
  fees: "100.00",
  customer: { name: "Ada Obi", tag: "ada.obi" },
};

describe.each(dbTargets())("the notifications consumer on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });
  const { mailbox, transport } = useMailSink();
  const deps = (send: MailDeps["send"] = (m) => transport().send(m)): MailDeps => ({
    db: database.db,
    send,
    appUrl: "https://dash.example.test",
    timeZone: "Africa/Lagos",
  });

  it("tells each person by their role's defaults, once per event however often the job runs", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const operator = await staffMember(db, "operator");
    const viewer = await staffMember(db, "viewer");
    await staffMember(db, "admin", true);
    const payment = await db.transaction((tx) => appendEvent(tx, "payment.received", PAYMENT));
    const opened = await db.transaction((tx) =>
      appendEvent(tx, "exception.opened", { id: "e-1", kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }),
    );
    expect((await audience(db, payment)).map((p) => p.id).sort()).toEqual([admin.id, operator.id].sort());
    expect(defaultPreferences("viewer").choices["exception.opened"]).toBe("off");
    for (const event of [payment, opened])
      for (const p of await audience(db, event)) {
        await notifyPerson(db, event.id, p.id);
        // A retried job (its process died after the insert) makes nothing new.
        await notifyPerson(db, event.id, p.id);
      }
    const rows = await db.select().from(notifications);
    expect(rows.map((r) => `${r.staffId === admin.id ? "admin" : r.staffId === operator.id ? "operator" : "other"}:${r.type}:${r.email}`).sort()).toEqual([
      "admin:exception.opened:queued",
      "admin:payment.received:none",
      "operator:exception.opened:queued",
      "operator:payment.received:none",
    ]);
    expect(rows.some((r) => r.staffId === viewer.id)).toBe(false);
    const told = rows.find((r) => r.type === "payment.received");
    expect(told?.title).toBe("NGN 4,990.50 received from Ada Obi (@ada.obi)");
    expect(told?.link).toBe(`/payments/${PAYMENT.uuid}`);
  });

  it("leaves out a payment below the person's threshold, and follows a changed choice", async () => {
    const db = database.db;
    const operator = await staffMember(db, "operator");
    const prefs = defaultPreferences("operator");
    await storePreferences(db, operator.id, { ...prefs, paymentThreshold: "5000.00", choices: { ...prefs.choices, "payment.received": "email" } });
    const small = await db.transaction((tx) => appendEvent(tx, "payment.received", PAYMENT));
    const large = await db.transaction((tx) =>
      appendEvent(tx, "payment.received", { ...PAYMENT, uuid: "1b4f3c1e-1111-4222-8333-444455556666", actualAmount: "5000.00" }),
    );
    expect((await audience(db, small)).some((p) => p.id === operator.id)).toBe(false);
    await notifyPerson(db, small.id, operator.id);
    await notifyPerson(db, large.id, operator.id);
    const rows = await db.select().from(notifications).where(eq(notifications.staffId, operator.id));
    expect(rows.map((r) => [r.eventId, r.email])).toEqual([[large.id, "queued"]]);
  });

  it("e-mails once, with one Message-ID, and a failed server is retried on its delays and then shown failed, never silent", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const opened = await db.transaction((tx) =>
      appendEvent(tx, "exception.opened", { id: "e-2", kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }),
    );
    await notifyPerson(db, opened.id, admin.id);
    const row = await notificationOf(db, admin.id, opened.id);

    // The server is down: attempts 1–5 each queue the next after 1 min, 5 min, 30 min, 2 h, 6 h; the 6th gives up.
    const down = createMailTransport(`smtp://127.0.0.1:${await deadPort()}`, { from: "f@localhost", timeouts: { connectionTimeout: 2_000 } });
    const queued: { attempt: number; delayMs: number }[] = [];
    for (let attempt = 1; attempt <= EMAIL_RETRY_DELAYS_MS.length + 1; attempt++) {
      const before = Date.now();
      const outcome = await attemptEmail(
        deps((m) => down.send(m)),
        row.id,
        attempt,
        async (next, startAfter) => {
          queued.push({ attempt: next, delayMs: Math.round((startAfter.getTime() - before) / 60_000) * 60_000 });
        },
      );
      expect(outcome).toBe(attempt <= EMAIL_RETRY_DELAYS_MS.length ? "retry" : "failed");
    }
    down.close();
    expect(queued).toEqual(EMAIL_RETRY_DELAYS_MS.map((delayMs, i) => ({ attempt: i + 2, delayMs })));
    const [failed] = await db.select().from(notifications).where(eq(notifications.id, row.id));
    expect(failed?.email).toBe("failed");
    expect(failed?.emailAttempts).toBe(6);
    expect(failed?.emailError).toMatch(/.+/);
    // A failed one is not tried again by a stray job.
    expect(await attemptEmail(deps(), row.id, 2, async () => undefined)).toBe("skipped");

    // A working server: sent once; a repeat of the same attempt sends nothing more.
    await db.update(notifications).set({ email: "queued", emailAttempts: 0, emailError: null }).where(eq(notifications.id, row.id));
    const sentIds: string[] = [];
    const recording: MailDeps["send"] = async (m) => {
      sentIds.push(m.headers?.["Message-ID"] ?? "");
      return transport().send(m);
    };
    expect(await attemptEmail(deps(recording), row.id, 1, async () => undefined)).toBe("sent");
    expect(await attemptEmail(deps(recording), row.id, 1, async () => undefined)).toBe("skipped");
    expect(sentIds).toEqual([messageIdOf(row.id)]);
    const mail = mailbox.list(admin.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe(row.title);
    expect(mail[0]?.html).toContain("https://dash.example.test/exceptions");
  });

  it("a batch notes the e-mails it sent together, each once, with its attempt", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const rows = [];
    for (const id of ["e-b1", "e-b2"]) {
      const opened = await db.transaction((tx) => appendEvent(tx, "exception.opened", { id, kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }));
      await notifyPerson(db, opened.id, admin.id);
      rows.push(await notificationOf(db, admin.id, opened.id));
    }
    const sent: { id: string; attempt: number }[] = [];
    expect(await attemptEmail(deps(), rows[0]!.id, 1, async () => undefined, undefined, sent)).toBe("sent");
    expect(await attemptEmail(deps(), rows[1]!.id, 3, async () => undefined, undefined, sent)).toBe("sent");
    // Listed, not yet noted: the batch notes them together.
    expect(sent).toEqual([
      { id: rows[0]!.id, attempt: 1 },
      { id: rows[1]!.id, attempt: 3 },
    ]);
    await markSent(db, sent);
    const noted = await db
      .select()
      .from(notifications)
      .where(inArray(notifications.id, [rows[0]!.id, rows[1]!.id]));
    expect(noted.map((n) => [n.id, n.email, n.emailAttempts, n.emailedAt !== null]).sort()).toEqual(
      [
        [rows[0]!.id, "sent", 1, true],
        [rows[1]!.id, "sent", 3, true],
      ].sort(),
    );
    expect(await attemptEmail(deps(), rows[0]!.id, 1, async () => undefined)).toBe("skipped");
    expect(mailbox.list(admin.email)).toHaveLength(2);
  });

  it("refused for good (550) fails at once, with the server's reason", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const opened = await db.transaction((tx) => appendEvent(tx, "exception.opened", { id: "e-3", kind: "unlinked_payment" }));
    await notifyPerson(db, opened.id, admin.id);
    const [row] = await db.select().from(notifications).where(eq(notifications.staffId, admin.id));
    if (!row) throw new Error("no notification");
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 })),
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const port = (refusing.server.address() as { port: number }).port;
    const refused = createMailTransport(`smtp://127.0.0.1:${port}`, { from: "f@localhost" });
    try {
      let queuedNext = false;
      expect(
        await attemptEmail(
          deps((m) => refused.send(m)),
          row.id,
          1,
          async () => {
            queuedNext = true;
          },
        ),
      ).toBe("failed");
      expect(queuedNext).toBe(false);
      const [failed] = await db.select().from(notifications).where(eq(notifications.id, row.id));
      expect(failed?.email).toBe("failed");
      expect(failed?.emailError).toMatch(/550|refused|mailbox/i);
    } finally {
      refused.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

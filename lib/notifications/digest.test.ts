import { randomUUID } from "node:crypto";

import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { recordBalanceReading } from "@/lib/balance/readings";
import { deadPort, staffMember, useMailSink } from "@/tests/support/mail";
import type { BalanceView } from "@/lib/balance/view";
import { formatMajor } from "@/lib/client/money";
import { defaultPreferences } from "@/lib/client/notifications/preferences";
import { preferencesSchema } from "@/lib/client/notifications/preferences-schema";
import { dayOf } from "@/lib/client/time/zone";
import type { Db } from "@/lib/db/client";
import { notificationDigests, notifications } from "@/lib/db/schema";
import { appendEvent } from "@/lib/events/append";
import { ApiError } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { createMailTransport } from "@/lib/mail/transport";
import { recordPayment } from "@/lib/payments/record";
import { readDayBook } from "@/lib/reports/daily";
import { clientKey } from "@/lib/requests/keys";
import { applyServiceState, insertSending, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { newKey } from "@/tests/support/request-deps";

import { claimDigests, digestContent } from "./digest";
import { attemptDigest } from "./digest-email.job";
import { EMAIL_RETRY_DELAYS_MS, type MailDeps } from "./email.job";
import { readNotificationPage } from "./inbox";
import { audience, notifyPerson } from "./notify.consumer";
import { readPreferences, storePreferences } from "./preferences";

// The daily digest (docs/architecture.md "Notifications") on a real database: claimed once per person and day, its
// day the Lagos day, its figures the day book's, sent to the SMTP sink or retried and then shown failed; nothing kept
// for it is left waiting for a digest that will never be sent. Every day here is a fixed date, whatever today is.

const LAGOS = "Africa/Lagos";
/** A Tuesday; Lagos is UTC+1 all year. */
const DAY = "2026-03-10";
const NEXT_DAY = "2026-03-11";
const LOG = { remoteAddr: "203.0.113.7", signatureOk: true } as const;

/** A payment received at `at` (UTC), asked ₦7 more than was paid, with a fee: amount, paid and settled all differ. */
async function paid(db: Db, at: string, p: { name: string; tag: string; paid: string; fees: string; settled: string }): Promise<void> {
  const uuid = randomUUID();
  const base = payload();
  const body = payload({
    uuid,
    amount: Number(p.paid) + 7,
    actual_amount: Number(p.paid),
    settled_amount: Number(p.settled),
    fees: Number(p.fees),
    customer: { ...base.customer, name: p.name, tag: p.tag },
    meta: { peer_tag: p.tag, name: p.name },
  });
  expect(await recordPayment(db, peerTransferPayloadSchema.parse(body), "major", LOG)).toBe("recorded");
  await db.execute(sql`update payments set received_at = ${at}::timestamptz where uuid = ${uuid}`);
}

/** A request sent at `at` and declined at `decidedAt`. */
async function declined(db: Db, at: string, decidedAt: string, amount: string): Promise<void> {
  const row = await insertSending(db, {
    reference: `fb_${newKey("digest")}`,
    idempotencyKey: clientKey(newKey("digest")),
    tag: "dayo",
    amount,
    description: "Dues",
    createdBy: null,
  });
  if (!row) throw new Error("insert refused");
  const pending = await markPending(db, row.id, String(Math.floor(Math.random() * 1e9)));
  await applyServiceState(db, pending?.requestId ?? "", {
    status: "declined",
    requestedBy: { name: "Biz", tag: "biz" },
    requestedSentTo: { name: "Dayo", tag: "dayo" },
    serviceCreatedAt: null,
    serviceUpdatedAt: new Date(decidedAt),
  });
  await db.execute(sql`update fund_requests set created_at = ${at}::timestamptz where id = ${row.id}::uuid`);
}

const balance = (minor: number): BalanceView => ({
  currency: "NGN",
  totalFormatted: "",
  fetchedAt: new Date().toISOString(),
  wallets: [{ name: "Main", main: true, balanceMinor: minor, formatted: "" }],
});

/** A notification kept for the digest, made at `at`. */
async function keptForDigest(db: Db, staffId: string, at: string, title: string): Promise<string> {
  const [row] = await db
    .insert(notifications)
    .values({ staffId, eventId: `e-${randomUUID()}`, type: "exception.opened", title, body: "", link: "/exceptions", createdAt: new Date(at), email: "digest" })
    .returning({ id: notifications.id });
  if (!row) throw new Error("no notification");
  return row.id;
}

describe("a type kept for the digest with the digest off", () => {
  it("is refused by PUT /api/me/notifications's parse: a 422 on the digest field, naming the type", async () => {
    const prefs = defaultPreferences("operator");
    const body = { ...prefs, choices: { ...prefs.choices, "payment.received": "digest" }, digest: false };
    const request = new Request("http://localhost/api/me/notifications", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const refused = await parseJsonBody(request, preferencesSchema).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    const { status, data } = refused as ApiError;
    expect(status).toBe(422);
    expect((data as { fieldErrors: Record<string, string[]> }).fieldErrors.digest?.[0]).toMatch(/digest is off.*A payment arrived/);
  });
});

describe.each(dbTargets())("the daily digest on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });
  const { mailbox, transport } = useMailSink();
  const deps = (send: MailDeps["send"] = (m) => transport().send(m)): MailDeps => ({
    db: database.db,
    send,
    appUrl: "https://dash.example.test",
    timeZone: LAGOS,
  });

  it("is claimed once per person and day, however often and however many claim it at once; only those who want it", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const viewer = await staffMember(db, "viewer");
    const noDigest = await staffMember(db, "operator");
    await storePreferences(db, noDigest.id, { ...defaultPreferences("operator"), digest: false });
    await staffMember(db, "admin", true);
    // Two instances' clocks at once, then a repeat run.
    const [first, second] = await Promise.all([claimDigests(db, DAY, LAGOS), claimDigests(db, DAY, LAGOS)]);
    const again = await claimDigests(db, DAY, LAGOS);
    const byPerson = (rows: { staffId: string; digestId: number }[]) => rows.map((r) => `${r.staffId}:${r.digestId}`).sort();
    expect(first.map((r) => r.staffId).sort()).toEqual([admin.id, viewer.id].sort());
    expect(byPerson(second)).toEqual(byPerson(first));
    expect(byPerson(again)).toEqual(byPerson(first));
    const rows = await db.select().from(notificationDigests);
    expect(rows.map((r) => `${r.staffId}:${r.day}:${r.status}`).sort()).toEqual([`${admin.id}:${DAY}:queued`, `${viewer.id}:${DAY}:queued`].sort());
    // One sent is not claimed again; another day is a row of its own.
    await db.update(notificationDigests).set({ status: "sent" }).where(eq(notificationDigests.staffId, admin.id));
    expect((await claimDigests(db, DAY, LAGOS)).map((r) => r.staffId)).toEqual([viewer.id]);
    expect((await claimDigests(db, NEXT_DAY, LAGOS)).map((r) => r.staffId).sort()).toEqual([admin.id, viewer.id].sort());
  });

  it("covers the Lagos day (23:30 UTC is the next day, 22:30 UTC the same), with the day book's figures: collected is settled after fees", async () => {
    const db = database.db;
    const viewer = await staffMember(db, "viewer");
    // 23:30 Lagos on the 10th: the 10th.
    await paid(db, "2026-03-10T22:30:00Z", { name: "Ada Obi", tag: "ada.obi", paid: "5000.00", fees: "50.00", settled: "4950.00" });
    // 00:30 Lagos on the 11th: the 11th, though still the 10th in UTC.
    await paid(db, "2026-03-10T23:30:00Z", { name: "Bola Ade", tag: "bola", paid: "2000.00", fees: "20.00", settled: "1980.00" });
    // 00:30 Lagos on the 10th: the 10th, though the 9th in UTC.
    await paid(db, "2026-03-09T23:30:00Z", { name: "Chidi Eze", tag: "chidi", paid: "1200.10", fees: "12.01", settled: "1188.09" });
    await declined(db, "2026-03-10T12:00:00Z", "2026-03-10T13:00:00Z", "300.00");
    await recordBalanceReading(db, balance(1_000_000), new Date("2026-03-10T08:00:00Z"));
    await recordBalanceReading(db, balance(1_000_000 + 496_000), new Date("2026-03-10T22:45:00Z"));

    const content = await digestContent(db, viewer.id, DAY, LAGOS);
    expect(content.dayLabel).toBe("Tuesday, 10 March 2026");
    expect(content.book).toEqual({ asked: "NGN 300.00", paid: "NGN 6,200.10", fees: "NGN 62.01", settled: "NGN 6,138.09", unexplained: "NGN 10.00" });
    expect(content.declines).toBe(1);
    expect(content.topPayers).toEqual([
      { name: "Ada Obi", tag: "ada.obi", collected: "NGN 4,950.00" },
      { name: "Chidi Eze", tag: "chidi", collected: "NGN 1,188.09" },
    ]);
    // The day book's line of that day, figure for figure.
    const [line] = (await readDayBook(db, DAY, DAY, LAGOS)).days;
    expect(content.book).toEqual({
      asked: formatMajor("NGN", line?.asked ?? ""),
      paid: formatMajor("NGN", line?.payments.gross ?? ""),
      fees: formatMajor("NGN", line?.payments.fees ?? ""),
      settled: formatMajor("NGN", line?.payments.settled ?? ""),
      unexplained: formatMajor("NGN", line?.unexplained ?? ""),
    });

    const next = await digestContent(db, viewer.id, NEXT_DAY, LAGOS);
    expect(next.book).toMatchObject({ paid: "NGN 2,000.00", fees: "NGN 20.00", settled: "NGN 1,980.00", unexplained: null });
    expect(next.topPayers).toEqual([{ name: "Bola Ade", tag: "bola", collected: "NGN 1,980.00" }]);
    expect(next.declines).toBe(0);
  });

  it("is sent once to the person's mailbox with what was kept for it, which is then marked e-mailed", async () => {
    const db = database.db;
    const admin = await staffMember(db, "admin");
    const kept = await keptForDigest(db, admin.id, "2026-03-10T12:00:00Z", "An unlinked payment of NGN 5,000.00");
    const later = await keptForDigest(db, admin.id, "2026-03-10T23:30:00Z", "Kept for the next day's digest");
    const [claim] = await claimDigests(db, DAY, LAGOS);
    if (!claim) throw new Error("no digest claimed");
    expect(await attemptDigest(deps(), claim.digestId, 1, async () => undefined)).toBe("sent");
    // A repeated job sends nothing more.
    expect(await attemptDigest(deps(), claim.digestId, 1, async () => undefined)).toBe("skipped");
    const mail = mailbox.list(admin.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("Fundboard daily digest: Tuesday, 10 March 2026");
    expect(mail[0]?.text).toContain("An unlinked payment of NGN 5,000.00");
    expect(mail[0]?.text).not.toContain("Kept for the next day's digest");
    expect(mail[0]?.html).toContain("https://dash.example.test/reports?from=2026-03-10&amp;to=2026-03-10");
    const [row] = await db.select().from(notificationDigests).where(eq(notificationDigests.id, claim.digestId));
    expect([row?.status, row?.attempts, row?.error, row?.sentAt instanceof Date]).toEqual(["sent", 1, null, true]);
    const emails = await db.select({ id: notifications.id, email: notifications.email }).from(notifications).where(eq(notifications.staffId, admin.id));
    expect(Object.fromEntries(emails.map((e) => [e.id, e.email]))).toEqual({ [kept]: "sent", [later]: "digest" });
  });

  it("an unreachable server is retried on the delays, then the digest and what it carried show failed on the person's page", async () => {
    const db = database.db;
    const viewer = await staffMember(db, "viewer");
    const kept = await keptForDigest(db, viewer.id, "2026-03-10T09:00:00Z", "A plan period was missed");
    const [claim] = await claimDigests(db, DAY, LAGOS);
    if (!claim) throw new Error("no digest claimed");
    const down = createMailTransport(`smtp://127.0.0.1:${await deadPort()}`, { from: "f@localhost", timeouts: { connectionTimeout: 2_000 } });
    const queued: { attempt: number; delayMs: number }[] = [];
    try {
      for (let attempt = 1; attempt <= EMAIL_RETRY_DELAYS_MS.length + 1; attempt++) {
        const before = Date.now();
        const outcome = await attemptDigest(
          deps((m) => down.send(m)),
          claim.digestId,
          attempt,
          async (next, startAfter) => {
            queued.push({ attempt: next, delayMs: Math.round((startAfter.getTime() - before) / 60_000) * 60_000 });
          },
        );
        expect(outcome).toBe(attempt <= EMAIL_RETRY_DELAYS_MS.length ? "retry" : "failed");
        if (attempt === 1) {
          // Between attempts the page does not call it failed yet: it is still being tried.
          const waiting = await readNotificationPage(db, viewer.id, { unread: false, page: 1 }, new Date("2026-03-11T08:05:00Z"));
          expect(waiting.failedDigests).toEqual([]);
          expect(waiting.items.map((i) => i.email)).toEqual(["digest"]);
        }
      }
    } finally {
      down.close();
    }
    expect(queued).toEqual(EMAIL_RETRY_DELAYS_MS.map((delayMs, i) => ({ attempt: i + 2, delayMs })));
    expect(await attemptDigest(deps(), claim.digestId, 2, async () => undefined)).toBe("skipped");
    expect(mailbox.list(viewer.email)).toEqual([]);
    const [row] = await db.select().from(notificationDigests).where(eq(notificationDigests.id, claim.digestId));
    expect([row?.status, row?.attempts, row?.sentAt]).toEqual(["failed", 6, null]);
    expect(row?.error).toMatch(/.+/);

    // The person's page (and GET /api/notifications, the same read) says so, with why, and so does what it carried.
    const page = await readNotificationPage(db, viewer.id, { unread: false, page: 1 }, new Date("2026-03-11T16:00:00Z"));
    expect(page.failedDigests).toEqual([{ day: DAY, dayLabel: "Tuesday, 10 March 2026", error: row?.error, link: `/reports?from=${DAY}&to=${DAY}` }]);
    expect(page.items.map((i) => [i.id, i.email])).toEqual([[kept, "failed"]]);
    expect(page.items[0]?.emailError).toContain("The daily digest of Tuesday, 10 March 2026 could not be sent");
    // A week on, the failed digest is no longer shown above the list (its items still say failed).
    expect((await readNotificationPage(db, viewer.id, { unread: false, page: 1 }, new Date("2026-03-19T08:00:00Z"))).failedDigests).toEqual([]);
  });

  it("leaves nothing waiting for a digest that will not be sent: a digest turned off keeps its types in the dashboard", async () => {
    const db = database.db;
    const operator = await staffMember(db, "operator");
    const prefs = defaultPreferences("operator");
    await storePreferences(db, operator.id, { ...prefs, choices: { ...prefs.choices, "exception.opened": "digest" } });
    const first = await db.transaction((tx) => appendEvent(tx, "exception.opened", { id: "x-1", kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }));
    await notifyPerson(db, first.id, operator.id);
    const [waiting] = await db.select().from(notifications).where(eq(notifications.staffId, operator.id));
    expect(waiting?.email).toBe("digest");

    // Turned off (the form now refuses a type kept for it, so its types go to the dashboard): the morning's claim
    // makes no digest for them, and what waited for it stays in the dashboard only.
    await storePreferences(db, operator.id, { ...prefs, choices: { ...prefs.choices, "exception.opened": "dashboard" }, digest: false });
    const day = dayOf(waiting?.createdAt ?? new Date(), LAGOS);
    expect((await claimDigests(db, day, LAGOS)).some((c) => c.staffId === operator.id)).toBe(false);
    const [after] = await db
      .select()
      .from(notifications)
      .where(eq(notifications.id, waiting?.id ?? ""));
    expect(after?.email).toBe("none");

    // A row saved before the form refused it (a type kept for the digest, the digest off) reads as the dashboard.
    await storePreferences(db, operator.id, { ...prefs, choices: { ...prefs.choices, "exception.opened": "digest" }, digest: false });
    expect((await readPreferences(db, operator.id, "operator")).choices["exception.opened"]).toBe("dashboard");
    const second = await db.transaction((tx) =>
      appendEvent(tx, "exception.opened", { id: "x-2", kind: "unlinked_payment", tag: "ada.obi", amount: "5000.00" }),
    );
    expect((await audience(db, second)).find((p) => p.id === operator.id)?.channel).toBe("dashboard");
    await notifyPerson(db, second.id, operator.id);
    const [told] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.staffId, operator.id), eq(notifications.eventId, second.id)));
    expect(told?.email).toBe("none");
  });
});

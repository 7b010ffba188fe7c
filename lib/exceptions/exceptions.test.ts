import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { openCountText } from "@/components/exceptions/format";
import { staffActor } from "@/lib/actors/actor";
import { resolveExceptionSchema } from "@/lib/client/exceptions/schemas";
import { queryRows, type Db } from "@/lib/db/client";
import { recordPayment } from "@/lib/payments/record";
import { readDayBook } from "@/lib/reports/daily";
import { clientKey } from "@/lib/requests/keys";
import { applyServiceState, insertSending, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import { dbTargets, useTestDatabase, type TestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { insertStaff, newKey, newTag } from "@/tests/support/request-deps";

import { scanExceptions } from "./detect";
import { countOpenExceptions, EXCEPTION_COUNT_CAP, OPEN_BADGE_CAP, readException, readExceptionPage } from "./queries";
import { ExceptionRefused } from "./refused";
import { reopenException, resolveException, resolveExceptionAudited } from "./resolve";

// The exceptions inbox (docs/architecture.md "Closing the books") on a real database: each kind opened once however many scans race (two
// connections on Postgres), closed by itself when its cause clears, never reopened by a scan after a person resolved
// it, a person's link with its refusals, the suggestions' order, the lost-webhook minutes and the day book's count.

const LOG = { remoteAddr: "203.0.113.7", signatureOk: true } as const;
const MINUTE = 60_000;

describe.each(dbTargets())("exceptions on $name", (target) => {
  const database: TestDatabase = useTestDatabase(target);
  let person: { id: string; name: string };
  beforeAll(async () => {
    person = await insertStaff(database.db, "Bola Finance");
  });
  beforeEach(async () => {
    for (const table of ["exceptions", "payments", "payment_hour_totals", "campaign_rows", "campaigns", "fund_requests"])
      await database.db.execute(sql.raw(`delete from ${table}`));
  });

  const scan = (db: Db = database.db, now = new Date(), paymentUuids?: string[]) => scanExceptions(db, { now, lostWebhookMinutes: 15, paymentUuids });

  /** A recorded payment from `tag`; `state` sets what its follow-up would have left. */
  async function paid(tag: string, amount: string, state: Record<string, unknown> = {}, receivedAt = new Date()): Promise<string> {
    const uuid = randomUUID();
    const body = payload({
      uuid,
      amount: Number(amount),
      actual_amount: Number(amount),
      settled_amount: Number(amount),
      fees: 0,
      meta: { peer_tag: tag, name: "Ada" },
    });
    expect(await recordPayment(database.db, peerTransferPayloadSchema.parse(body), "major", LOG)).toBe("recorded");
    await database.db.execute(sql`update payments set received_at = ${receivedAt.toISOString()}::timestamptz where uuid = ${uuid}`);
    for (const [column, value] of Object.entries(state)) await database.db.execute(sql`update payments set ${sql.raw(column)} = ${value} where uuid = ${uuid}`);
    return uuid;
  }

  /** A request to `tag` the service holds as `status`; answers its row id and service id. */
  async function asked(tag: string, amount: string, status: "pending" | "accepted" | "declined" = "pending", decidedAt = new Date()) {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("exc")}`,
      idempotencyKey: clientKey(newKey("exc")),
      tag,
      amount,
      description: "Dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    const requestId = String(Math.floor(Math.random() * 1e10));
    await markPending(database.db, row.id, requestId);
    if (status !== "pending")
      await applyServiceState(database.db, requestId, {
        status,
        requestedBy: { name: "Biz", tag: "biz" },
        requestedSentTo: { name: "Ada", tag },
        serviceCreatedAt: null,
        serviceUpdatedAt: decidedAt,
      });
    await database.db.execute(
      sql`update fund_requests set decided_at = ${decidedAt.toISOString()}::timestamptz where id = ${row.id}::uuid and status <> 'pending'`,
    );
    return { id: row.id, requestId };
  }

  /** Links a payment to a request as linking would have (both sides). */
  async function link(uuid: string, requestRowId: string): Promise<void> {
    await database.db.execute(sql`update fund_requests set payment_uuid = ${uuid}, status = 'accepted' where id = ${requestRowId}::uuid`);
    await database.db.execute(sql`update payments set fund_request_id = ${requestRowId}::uuid, link_note = null where uuid = ${uuid}`);
  }

  async function rows() {
    return queryRows<{ kind: string; subject: string; status: string; resolved_by_name: string | null; note: string | null }>(
      database.db,
      sql`select kind, subject, status, resolved_by_name, note from exceptions order by kind, subject`,
    );
  }

  async function one(kind: string, subject: string) {
    const found = (await rows()).filter((r) => r.kind === kind && r.subject === subject);
    expect(found).toHaveLength(1);
    return found[0];
  }

  /** A campaign of `family` (null: its own family) with a row sent as `requestRowId`. */
  async function campaignRow(requestRowId: string, tag: string, family: string | null): Promise<string> {
    const [c] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into campaigns (name, status, family_id) values ('Dues', 'done', ${family}::uuid) returning id`,
    );
    if (!c) throw new Error("no campaign");
    await database.db.execute(
      sql`insert into campaign_rows (campaign_id, row, tag, amount_text, amount_naira, description, status, fund_request_id)
          values (${c.id}::uuid, 1, ${tag}, '500', 500, 'Dues', 'sent', ${requestRowId}::uuid)`,
    );
    return c.id;
  }

  it("opens each kind once, however many scans run at once and on two connections", async () => {
    const failed = await paid(newTag("vf"), "100.00", { verification: "failed", verification_error: "The verify host does not know this transaction." });
    const mismatch = await paid(newTag("mm"), "100.00", {
      verification: "failed",
      verification_mismatch: true,
      verification_error: "The verify host reports amount NGN 90.00…",
    });
    const unlinked = await paid(newTag("un"), "100.00", { link_note: "No open request was found; not linked." });
    // A second payment for one request: a request to this tag for this amount already has its payment.
    const twinTag = newTag("tw");
    const first = await paid(twinTag, "250.00");
    const firstRequest = await asked(twinTag, "250.00");
    await link(first, firstRequest.id);
    const second = await paid(twinTag, "250.00", { link_note: "No open request was found; not linked." });
    // A second payment in one campaign family from one tag: the first round and its ask-again round both paid.
    const famTag = newTag("fam");
    const [r1, r2] = [await asked(famTag, "500.00"), await asked(famTag, "500.00")];
    const c1 = await campaignRow(r1.id, famTag, null);
    await campaignRow(r2.id, famTag, c1);
    const p1 = await paid(famTag, "500.00", {}, new Date(Date.now() - 2 * MINUTE));
    const p2 = await paid(famTag, "500.00");
    await link(p1, r1.id);
    await link(p2, r2.id);
    // Accepted 20 minutes ago and no payment: a lost webhook; accepted 5 minutes ago: not yet.
    const lost = await asked(newTag("lost"), "700.00", "accepted", new Date(Date.now() - 20 * MINUTE));
    await asked(newTag("recent"), "700.00", "accepted", new Date(Date.now() - 5 * MINUTE));

    const other = database.kind === "postgres" ? await database.reopen() : null;
    try {
      const dbs = [database.db, other?.db ?? database.db];
      const passes = await Promise.all(Array.from({ length: 6 }, (_, i) => scan(dbs[i % 2])));
      expect(passes.reduce((n, p) => n + p.opened, 0)).toBe(6);
    } finally {
      await other?.close();
    }
    await scan();
    expect((await rows()).map((r) => [r.kind, r.subject, r.status])).toEqual(
      [
        ["accepted_without_payment", lost.id, "open"],
        ["amount_mismatch", mismatch, "open"],
        ["duplicate_payment", p2, "open"],
        ["duplicate_payment", second, "open"],
        ["unlinked_payment", unlinked, "open"],
        ["verification_failed", failed, "open"],
      ].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`)),
    );
    const page = await readExceptionPage(database.db, { status: "open", page: 1 });
    expect([page.total, page.open, page.items.find((e) => e.kind === "duplicate_payment" && e.paymentUuid === second)?.requestId]).toEqual([6, 6, null]);
    expect(page.items.find((e) => e.kind === "accepted_without_payment")).toMatchObject({ requestId: lost.requestId, amount: "700.00" });
  });

  it("closes by itself when its cause clears: a re-verify succeeds, the late webhook arrives, the payment is linked", async () => {
    const failed = await paid(newTag("vf"), "100.00", { verification: "failed", verification_error: "Could not verify after 10 attempts." });
    const unlinkedTag = newTag("un");
    const unlinked = await paid(unlinkedTag, "100.00", { link_note: "No open request was found; not linked." });
    const lost = await asked(newTag("lost"), "700.00", "accepted", new Date(Date.now() - 20 * MINUTE));
    await scan();
    expect((await rows()).filter((r) => r.status === "open")).toHaveLength(3);

    await database.db.execute(sql`update payments set verification = 'verified', verification_error = null where uuid = ${failed}`);
    // The payment's own scan (its follow-up, a re-verify) closes it at once.
    expect(await scan(database.db, new Date(), [failed])).toEqual({ opened: 0, closed: 1 });
    expect(await one("verification_failed", failed)).toMatchObject({ status: "resolved", resolved_by_name: null, note: "Verified at the verify host." });

    const late = await paid(newTag("late"), "700.00");
    await link(late, lost.id);
    const request = await asked(unlinkedTag, "100.00");
    await link(unlinked, request.id);
    // The late payment's scan closes the lost-webhook exception of the request it was linked to.
    expect(await scan(database.db, new Date(), [late, unlinked])).toEqual({ opened: 0, closed: 2 });
    expect(await one("accepted_without_payment", lost.id)).toMatchObject({ status: "resolved", note: "The payment arrived." });
    expect(await one("unlinked_payment", unlinked)).toMatchObject({ status: "resolved", note: "Linked to its request." });

    // The service later undoes that link (it says the request was declined): the same exception opens again.
    await database.db.execute(sql`update fund_requests set payment_uuid = null, status = 'declined' where id = ${request.id}::uuid`);
    await database.db.execute(
      sql`update payments set fund_request_id = null, link_note = 'The service says the request was declined; not linked.' where uuid = ${unlinked}`,
    );
    expect(await scan(database.db, new Date(), [unlinked])).toEqual({ opened: 1, closed: 0 });
    expect(await one("unlinked_payment", unlinked)).toMatchObject({ status: "open", resolved_by_name: null, note: null });
    expect(await scan()).toEqual({ opened: 0, closed: 0 });
  });

  it("closes an amount mismatch by itself when a re-verify agrees", async () => {
    const mismatch = await paid(newTag("am"), "100.00", {
      verification: "failed",
      verification_mismatch: true,
      verification_error: "The verify host says 90.00 was settled.",
    });
    await scan();
    expect(await one("amount_mismatch", mismatch)).toMatchObject({ status: "open" });
    await database.db.execute(
      sql`update payments set verification = 'verified', verification_mismatch = false, verification_error = null where uuid = ${mismatch}`,
    );
    expect(await scan(database.db, new Date(), [mismatch])).toEqual({ opened: 0, closed: 1 });
    expect(await one("amount_mismatch", mismatch)).toMatchObject({
      status: "resolved",
      resolved_by_name: null,
      note: "The verify host now agrees on the amounts.",
    });
  });

  it("is never reopened by a scan after a person resolved it, and a person's reopening keeps it open", async () => {
    const failed = await paid(newTag("vf"), "100.00", { verification: "failed", verification_error: "Could not verify." });
    await scan();
    const [open] = (await readExceptionPage(database.db, { status: "open", page: 1 })).items;
    if (!open) throw new Error("not opened");
    const resolved = await resolveException(database.db, open.id, { note: "Confirmed with the service by phone." }, person);
    expect([resolved.status, resolved.resolvedByName, resolved.note]).toEqual(["resolved", "Bola Finance", "Confirmed with the service by phone."]);
    expect(await scan()).toEqual({ opened: 0, closed: 0 });
    expect(await one("verification_failed", failed)).toMatchObject({ status: "resolved", resolved_by_name: "Bola Finance" });
    // Its cause is still there, and a scan of the payment itself leaves it resolved too.
    expect(await scan(database.db, new Date(), [failed])).toEqual({ opened: 0, closed: 0 });
    // Resolved again: 409 naming who resolved it.
    const again = await resolveException(database.db, open.id, { note: "Twice" }, person).catch((e: unknown) => e);
    expect(again instanceof ExceptionRefused && [again.kind, again.message]).toEqual(["conflict", expect.stringContaining("already resolved by Bola Finance")]);

    // Reopened, then its cause clears: the scan leaves it to a person.
    expect((await reopenException(database.db, open.id)).status).toBe("open");
    const reopenAgain = await reopenException(database.db, open.id).catch((e: unknown) => e);
    expect(reopenAgain instanceof ExceptionRefused && reopenAgain.kind).toBe("conflict");
    await database.db.execute(sql`update payments set verification = 'verified' where uuid = ${failed}`);
    await scan();
    expect(await one("verification_failed", failed)).toMatchObject({ status: "open" });
  });

  it("links an unlinked payment to a request a person picks, ranks the suggestions, and refuses what cannot be linked", async () => {
    const tag = newTag("pick");
    const payment = await paid(tag, "300.00", { link_note: "No open request to this tag for NGN 300.00; not linked.", verification: "verified" });
    const sameTagOnly = await asked(tag, "120.00");
    const sameAmount = await asked(tag, "300.00");
    const declined = await asked(tag, "300.00", "declined");
    const otherTag = await asked(newTag("other"), "300.00");
    const taken = await asked(tag, "300.00");
    await link(await paid(tag, "300.00"), taken.id);
    // With a paid twin the payment reads as a second payment; without the paid request it is unlinked.
    await database.db.execute(sql`update fund_requests set status = 'declined', payment_uuid = null where id = ${taken.id}::uuid`);
    await scan();
    const [exception] = (await readExceptionPage(database.db, { status: "open", kind: "unlinked_payment", page: 1 })).items;
    if (!exception) throw new Error("not opened");
    const detail = await readException(database.db, exception.id);
    expect(detail?.suggestions.map((s) => [s.requestId, s.sameAmount])).toEqual([
      [sameAmount.requestId, true],
      [sameTagOnly.requestId, false],
    ]);

    const refused = async (requestId: string, id = exception.id) => {
      const error = await resolveException(database.db, id, { note: "Paid by transfer", requestId }, person).catch((e: unknown) => e);
      return error instanceof ExceptionRefused ? [error.kind, error.message] : error;
    };
    // Another amount is linked only when the person says to accept it.
    expect(await refused(sameTagOnly.requestId)).toEqual(["amount_differs", expect.stringContaining("asks NGN 120.00, but this payment paid NGN 300.00")]);
    // Only a verified payment settles a request, and only from an exception about linking.
    await database.db.execute(sql`update payments set verification = 'unverified' where uuid = ${payment}`);
    expect(await refused(sameAmount.requestId)).toEqual(["conflict", expect.stringContaining("not verified")]);
    await database.db.execute(sql`update payments set verification = 'verified' where uuid = ${payment}`);
    const [other] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into exceptions (kind, subject, payment_uuid, tag, detail) values ('verification_failed', ${randomUUID()}, ${payment}, ${tag}, 'x') returning id`,
    );
    expect(await refused(sameAmount.requestId, other?.id)).toEqual(["conflict", expect.stringContaining("Only a payment that was not linked")]);
    expect(await refused(declined.requestId)).toEqual(["conflict", expect.stringContaining("is declined")]);
    expect(await refused(otherTag.requestId)).toEqual(["conflict", expect.stringContaining("another person's request")]);
    await database.db.execute(sql`update fund_requests set status = 'pending', payment_uuid = ${randomUUID()} where id = ${taken.id}::uuid`);
    expect(await refused(taken.requestId)).toEqual(["conflict", expect.stringContaining("already has a payment")]);
    expect(await refused("999999999999")).toEqual(["unknown_request", expect.stringContaining("No request #999999999999")]);

    let amounts: unknown = null;
    const resolved = await resolveException(
      database.db,
      exception.id,
      { note: "Paid by transfer", requestId: sameAmount.requestId },
      person,
      (a) => (amounts = a),
    );
    expect(amounts).toEqual({ paid: "300.00", asked: "300.00" });
    expect([resolved.status, resolved.requestId, resolved.resolvedByName]).toEqual(["resolved", sameAmount.requestId, "Bola Finance"]);
    const [linked] = await queryRows<{ status: string; payment_uuid: string | null }>(
      database.db,
      sql`select status, payment_uuid from fund_requests where id = ${sameAmount.id}::uuid`,
    );
    expect(linked).toEqual({ status: "accepted", payment_uuid: payment });
  });

  it("links a verified payment of another amount only when the person accepts the difference", async () => {
    const tag = newTag("differs");
    const payment = await paid(tag, "1.00", { link_note: "No open request to this tag for NGN 1.00; not linked.", verification: "verified" });
    const request = await asked(tag, "150.00");
    await scan();
    const found = (await readExceptionPage(database.db, { status: "open", kind: "unlinked_payment", page: 1 })).items.find((e) => e.paymentUuid === payment);
    if (!found) throw new Error("not opened");
    const error = await resolveException(database.db, found.id, { note: "One naira", requestId: request.requestId }, person).catch((e: unknown) => e);
    expect(error instanceof ExceptionRefused && error.kind).toBe("amount_differs");
    const [still] = await queryRows<{ status: string }>(database.db, sql`select status from fund_requests where id = ${request.id}::uuid`);
    expect(still?.status).toBe("pending");
    await resolveExceptionAudited(database.db, staffActor({ ...person, email: "bola@example.test", role: "operator" }), found.id, {
      note: "Agreed by phone",
      requestId: request.requestId,
      acceptDifferentAmount: true,
    });
    // The audit row keeps both amounts and says a different one was accepted.
    const [audit] = await queryRows<{ detail: Record<string, unknown> }>(
      database.db,
      sql`select detail from audit_log where action = 'exception.resolved' and target = ${found.id}`,
    );
    expect(audit?.detail).toMatchObject({ linkedRequestId: request.requestId, paid: "1.00", asked: "150.00", acceptedDifferentAmount: true });
  });

  it("writes the resolve's audit row: the action, who resolved it, the exception and the note", async () => {
    const failed = await paid(newTag("auditres"), "100.00", { verification: "failed", verification_error: "Could not verify." });
    await scan();
    const found = (await readExceptionPage(database.db, { status: "open", page: 1 })).items.find((e) => e.paymentUuid === failed);
    if (!found) throw new Error("not opened");
    const bola = staffActor({ ...person, email: "bola@example.test", role: "operator" }, "203.0.113.9");
    await resolveExceptionAudited(database.db, bola, found.id, { note: "Checked with the bank" });
    const audit = await queryRows<{ action: string; actor_id: string | null; actor_email: string | null; ip: string | null; detail: Record<string, unknown> }>(
      database.db,
      sql`select action, actor_id, actor_email, ip, detail from audit_log where target = ${found.id}`,
    );
    expect(audit).toEqual([
      {
        action: "exception.resolved",
        actor_id: person.id,
        actor_email: "bola@example.test",
        ip: "203.0.113.9",
        detail: { kind: "verification_failed", note: "Checked with the bank", paymentUuid: failed },
      },
    ]);
  });

  it("waits LOST_WEBHOOK_MINUTES after the acceptance before calling a webhook lost", async () => {
    const request = await asked(newTag("lost"), "700.00", "accepted", new Date(Date.now() - 10 * MINUTE));
    expect((await scanExceptions(database.db, { now: new Date(), lostWebhookMinutes: 15 })).opened).toBe(0);
    expect((await scanExceptions(database.db, { now: new Date(), lostWebhookMinutes: 9 })).opened).toBe(1);
    expect(await one("accepted_without_payment", request.id)).toMatchObject({ status: "open" });
  });

  it("leaves to a payment's own scan what is older than the full scan's week", async () => {
    const old = await paid(newTag("old"), "100.00", { verification: "failed" }, new Date(Date.now() - 8 * 24 * 60 * MINUTE));
    await scan();
    expect((await rows()).filter((r) => r.subject === old)).toEqual([]);
    expect((await scan(database.db, new Date(), [old])).opened).toBe(1);
    expect(await one("verification_failed", old)).toMatchObject({ status: "open" });
  });

  it("counts open ones to the badge's cap and a list's total to its own, saying when there are more", async () => {
    const add = (n: number, from: number) =>
      database.db.execute(
        sql`insert into exceptions (kind, subject, detail) select 'unlinked_payment', 'cap-' || g, 'A payment nobody asked for.' from generate_series(${from}::int, ${from + n - 1}::int) g`,
      );
    await add(OPEN_BADGE_CAP, 1);
    expect(await countOpenExceptions(database.db)).toEqual({ open: OPEN_BADGE_CAP, capped: false });
    expect(await readExceptionPage(database.db, { status: "open", page: 1 })).toMatchObject({ open: OPEN_BADGE_CAP, openCapped: false, total: OPEN_BADGE_CAP });
    await add(1, OPEN_BADGE_CAP + 1);
    expect(await countOpenExceptions(database.db)).toEqual({ open: OPEN_BADGE_CAP, capped: true });
    expect(openCountText(await countOpenExceptions(database.db))).toBe("99+");
    expect(await readExceptionPage(database.db, { status: "open", page: 1 })).toMatchObject({
      openCapped: true,
      total: OPEN_BADGE_CAP + 1,
      totalCapped: false,
    });
    await add(EXCEPTION_COUNT_CAP, OPEN_BADGE_CAP + 2);
    expect(await readExceptionPage(database.db, { status: "open", page: 1 })).toMatchObject({ total: EXCEPTION_COUNT_CAP, totalCapped: true });
  });

  it("counts in the day book the exceptions still open, on the Lagos day they were opened", async () => {
    // 23:30 on the 24th and 00:30 on the 25th, Lagos time.
    await paid(newTag("a"), "10.00", { verification: "failed" });
    await paid(newTag("b"), "10.00", { verification: "failed" });
    await scan(database.db, new Date("2026-11-24T22:30:00Z"));
    await paid(newTag("c"), "10.00", { verification: "failed" });
    await scan(database.db, new Date("2026-11-24T23:30:00Z"));
    const book = await readDayBook(database.db, "2026-11-24", "2026-11-25", "Africa/Lagos");
    expect(book.days.map((d) => [d.date, d.openExceptions])).toEqual([
      ["2026-11-24", 2],
      ["2026-11-25", 1],
    ]);
    // The day book's figures link to these: the inbox filtered to the Lagos day they were opened (not the UTC day).
    const onDay = async (day: string) => (await readExceptionPage(database.db, { status: "open", day, page: 1 }, "Africa/Lagos")).total;
    expect([await onDay("2026-11-24"), await onDay("2026-11-25"), await onDay("2026-11-23")]).toEqual([2, 1, 0]);
    // Resolved, it is no longer counted open on its day.
    const [first] = (await readExceptionPage(database.db, { status: "open", day: "2026-11-24", page: 1 }, "Africa/Lagos")).items;
    await resolveException(database.db, first?.id ?? "", { note: "Checked" }, person);
    const after = await readDayBook(database.db, "2026-11-24", "2026-11-25", "Africa/Lagos");
    expect(after.days.map((d) => d.openExceptions)).toEqual([1, 1]);
  });
});

describe("the resolve form's rule", () => {
  it("requires a note and reads an empty request id as none", () => {
    expect(resolveExceptionSchema.safeParse({ note: "  " }).error?.flatten().fieldErrors.note).toEqual(["Write a note saying how this was settled"]);
    expect(resolveExceptionSchema.parse({ note: "Refunded", requestId: "" })).toEqual({ note: "Refunded", requestId: undefined });
    expect(resolveExceptionSchema.safeParse({ note: "x", requestId: "12;drop" }).success).toBe(false);
  });
});

import { randomUUID } from "node:crypto";

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { staffActor } from "@/lib/actors/actor";
import { handPaymentSchema } from "@/lib/client/exceptions/schemas";
import { queryRows } from "@/lib/db/client";
import { auditLog, exceptions, fundRequests, payerStats, payments } from "@/lib/db/schema";
import { accountingCsv, paymentsForExport } from "@/lib/payments/accounting-export";
import { closeFinishedHours } from "@/lib/payments/hour-totals";
import { linkPayment } from "@/lib/payments/link";
import { recordPayment } from "@/lib/payments/record";
import { verifyPayment } from "@/lib/payments/verify";
import { readDayBook } from "@/lib/reports/daily";
import { clientKey } from "@/lib/requests/keys";
import { applyServiceState, insertSending, markPending } from "@/lib/requests/status";
import { peerTransferPayloadSchema } from "@/lib/service/schemas";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { payload } from "@/tests/support/payloads";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";

import { scanExceptions } from "./detect";
import { recordPaymentByHand } from "./record-by-hand";
import { ExceptionRefused } from "./refused";

// A lost payment notice settled by hand (docs/decisions.md): the payment counts once in the day book (on the day the
// person accepted), in the exports with its mark, and the late notice replaces it instead of adding a second.

const LOG = { remoteAddr: "203.0.113.7", signatureOk: true } as const;
const LAGOS = "Africa/Lagos";
// The person accepted at 11:00 Lagos on the 24th; the notice never came.
const ACCEPTED_AT = new Date("2026-11-24T10:00:00Z");

describe.each(dbTargets())("a payment recorded by hand on $name", (target) => {
  const database = useTestDatabase(target);
  let sb: Sandbox;
  let person: { id: string; name: string; email: string };
  beforeAll(async () => {
    sb = await startTestSandbox();
    const staffRow = await insertStaff(database.db, "Bola Finance");
    person = { ...staffRow, email: "bola@example.test" };
  });
  afterAll(async () => {
    await sb.close();
  });

  async function webhookPayment(tag: string, amounts: { actual: number; fees: number }, receivedAt: Date): Promise<string> {
    const uuid = randomUUID();
    const body = payload({
      uuid,
      amount: 1000,
      actual_amount: amounts.actual,
      settled_amount: amounts.actual - amounts.fees,
      fees: amounts.fees,
      customer: { ...payload().customer, tag, name: "Ada Obi" },
      meta: { peer_tag: tag, name: "Ada Obi" },
    });
    expect(await recordPayment(database.db, peerTransferPayloadSchema.parse(body), "major", LOG)).toBe("recorded");
    await database.db.update(payments).set({ receivedAt }).where(eq(payments.uuid, uuid));
    return uuid;
  }

  /** An accepted request of ₦1,000 to `tag` with no payment notice, and its open accepted_without_payment exception. */
  async function lostNotice(tag: string): Promise<{ requestRowId: string; requestId: string; exceptionId: string }> {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("hand")}`,
      idempotencyKey: clientKey(newKey("hand")),
      tag,
      amount: "1000.00",
      description: "November dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    const requestId = String(Math.floor(Math.random() * 1e10));
    await markPending(database.db, row.id, requestId);
    await applyServiceState(database.db, requestId, {
      status: "accepted",
      requestedBy: { name: "Biz", tag: "biz" },
      requestedSentTo: { name: "Ada Obi", tag },
      serviceCreatedAt: null,
      serviceUpdatedAt: ACCEPTED_AT,
    });
    await scanExceptions(database.db, { now: new Date(ACCEPTED_AT.getTime() + 20 * 60_000), lostWebhookMinutes: 15 });
    const [exception] = await database.db.select().from(exceptions).where(eq(exceptions.subject, row.id));
    if (exception?.kind !== "accepted_without_payment") throw new Error("no lost-webhook exception opened");
    return { requestRowId: row.id, requestId, exceptionId: exception.id };
  }

  const dayOf = async (date: string, now: Date) => (await readDayBook(database.db, date, date, LAGOS, now)).days[0]?.payments;

  it("counts once on the day it was accepted, is exported with its mark, and its late notice replaces it", async () => {
    const tag = newTag("handpaid");
    // Another payment that morning, so the day's hours are summed and kept before the hand record arrives.
    await webhookPayment(newTag("other"), { actual: 500, fees: 5 }, new Date("2026-11-24T08:00:00Z"));
    await closeFinishedHours(database.db, new Date("2026-11-26T00:00:00Z"));
    const { requestRowId, requestId, exceptionId } = await lostNotice(tag);

    const outcome = await recordPaymentByHand(database.db, staffActor({ ...person, role: "operator" }, "203.0.113.9"), exceptionId, {
      note: "On the bank statement of the 24th",
      payment: { amount: "1000.00", fees: "15.00", reference: "GTB-2411-0042" },
    });
    expect(outcome.exception).toMatchObject({ status: "resolved", resolvedByName: "Bola Finance", note: "On the bank statement of the 24th" });
    const [hand] = await database.db.select().from(payments).where(eq(payments.uuid, outcome.paymentUuid));
    expect(hand).toMatchObject({
      source: "hand",
      actualAmount: "1000.00",
      fees: "15.00",
      settledAmount: "985.00",
      handReference: "GTB-2411-0042",
      fundRequestId: requestRowId,
      receivedAt: ACCEPTED_AT,
    });
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.id, requestRowId));
    expect(request).toMatchObject({ status: "accepted", paymentUuid: outcome.paymentUuid });
    // Never sent to the verify host.
    expect(await verifyPayment(requestDeps(database.db, sb), outcome.paymentUuid)).toMatchObject({ verification: "failed" });
    expect((await database.db.select().from(payments).where(eq(payments.uuid, outcome.paymentUuid)))[0]?.verificationAttempts).toBe(0);

    // The day book of the 24th counts it in the kept hour, not verified; the export marks it.
    const before = new Date("2026-11-26T00:00:00Z");
    expect(await dayOf("2026-11-24", before)).toEqual({ count: 2, gross: "1500.00", fees: "20.00", settled: "1480.00", verified: 0 });
    const exported = accountingCsv("xero", (await paymentsForExport(database.db, { from: "2026-11-24", to: "2026-11-24" }, LAGOS)) ?? [], LAGOS);
    expect(exported).toContain(`24/11/2026,1000.00,Ada Obi,"November dues (${outcome.paymentUuid}; recorded by hand, not verified, ref GTB-2411-0042)",${tag}`);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.target, outcome.paymentUuid));
    expect(audit.map((a) => a.action)).toEqual(["payment.recorded_by_hand"]);

    // The notice arrives on the 27th: it takes the request, the hand record goes, and the money counts once.
    const lateAt = new Date("2026-11-27T09:00:00Z");
    const late = await webhookPayment(tag, { actual: 1000, fees: 20 }, lateAt);
    expect(await linkPayment(requestDeps(database.db, sb), late)).toEqual({ linked: true, requestId });
    expect(await database.db.select().from(payments).where(eq(payments.uuid, outcome.paymentUuid))).toEqual([]);
    const linked = await database.db.select().from(payments).where(eq(payments.fundRequestId, requestRowId));
    expect(linked.map((p) => p.uuid)).toEqual([late]);
    expect((await database.db.select().from(fundRequests).where(eq(fundRequests.id, requestRowId)))[0]?.paymentUuid).toBe(late);
    const after = new Date("2026-11-27T09:05:00Z");
    expect(await dayOf("2026-11-24", after)).toEqual({ count: 1, gross: "500.00", fees: "5.00", settled: "495.00", verified: 0 });
    expect(await dayOf("2026-11-27", after)).toEqual({ count: 1, gross: "1000.00", fees: "20.00", settled: "980.00", verified: 0 });
    const [stats] = await database.db.select().from(payerStats).where(eq(payerStats.tag, tag));
    expect(stats).toMatchObject({ payments: 1, collected: "980.00" });
    const [replaced] = await queryRows<{ action: string; detail: { handUuid: string; handAmount: string } }>(
      database.db,
      sql`select action, detail from audit_log where target = ${late}`,
    );
    expect(replaced).toMatchObject({ action: "payment.hand_record_replaced", detail: { handUuid: outcome.paymentUuid, handAmount: "1000.00" } });
    const [exception] = await database.db.select().from(exceptions).where(eq(exceptions.id, exceptionId));
    expect(exception).toMatchObject({ status: "resolved", paymentUuid: late });
  });

  it("refuses another kind of exception, and a second record of the same one", async () => {
    const tag = newTag("twice");
    const { exceptionId } = await lostNotice(tag);
    const input = { note: "Paid", payment: { amount: "1000.00", fees: "0.00", reference: "REF-1" } };
    const actor = staffActor({ ...person, role: "operator" });
    await recordPaymentByHand(database.db, actor, exceptionId, input);
    await expect(recordPaymentByHand(database.db, actor, exceptionId, input)).rejects.toBeInstanceOf(ExceptionRefused);
    const [other] = await database.db
      .insert(exceptions)
      .values({ kind: "unlinked_payment", subject: randomUUID(), detail: "A payment nobody asked for." })
      .returning();
    await expect(recordPaymentByHand(database.db, actor, other?.id ?? "", input)).rejects.toThrow(/Only an accepted request/);
    const count = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from payments where customer_tag = ${tag}`);
    expect(count[0]?.n).toBe(1);
  });
});

describe("the hand payment's form rule", () => {
  it("takes zero fees, refuses fees of the whole amount and an empty reference", () => {
    expect(handPaymentSchema.parse({ amount: "1,000", fees: "", reference: " REF " })).toEqual({ amount: "1000.00", fees: "0.00", reference: "REF" });
    const paths = (input: Record<string, string>) => handPaymentSchema.safeParse(input).error?.issues.map((i) => i.path.join("."));
    expect(paths({ amount: "100", fees: "100", reference: "REF" })).toEqual(["fees"]);
    expect(paths({ amount: "100", fees: "99.99", reference: "REF" })).toBeUndefined();
    expect(paths({ amount: "100", fees: "0", reference: "" })).toEqual(["reference"]);
  });
});

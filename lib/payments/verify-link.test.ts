import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { events, fundRequests, payments } from "@/lib/db/schema";
import { createFundRequest } from "@/lib/requests/create";
import { applyFetched } from "@/lib/requests/refresh";
import { spendServiceCall } from "@/lib/service/budget";
import { budgetGate } from "@/lib/service/budget-gate";
import { processDelivery } from "@/lib/webhooks/intake";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { FETCH_CALL, FETCH_PATH, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { waitFor } from "@/tests/support/wait-for";
import type { Sandbox } from "@/sandbox/server";

/** The app's budget hook over the real shared budget, at a limit of 3 background calls a minute. */
import type { PaymentDeps } from "./deps";
import { followUpPayment } from "./after-record";
import { followUpBatch } from "./follow-up.job";
import { confirmLink, linkPayment, PENDING_GRACE_MS } from "./link";
import { sweepOnce } from "./sweep";
import { MAX_VERIFY_ATTEMPTS, verifyPayment, verifyPayments } from "./verify";

interface SandboxDelivery {
  request_id: number;
  body: string;
  signature: string;
}

describe.each(dbTargets())("payment verification and linking on $name", (target) => {
  const database = useTestDatabase(target);
  let sb: Sandbox;
  let control: SandboxControl;
  let operator: { id: string; name: string };

  beforeAll(async () => {
    sb = await startTestSandbox();
    control = sandboxControl(sb);
    operator = await insertStaff(database.db);
  });
  afterAll(async () => {
    await sb.close();
  });
  afterEach(async () => control.clearFaults());

  const deps = (): PaymentDeps => requestDeps(database.db, sb);

  async function deliveries(): Promise<SandboxDelivery[]> {
    const res = await fetch(`${sb.apiUrl}/sandbox/webhooks`);
    return ((await res.json()) as { data: { deliveries: SandboxDelivery[] } }).data.deliveries;
  }

  /** A request through our own create path, accepted at the sandbox, its real signed delivery fed to the intake. */
  async function acceptedPayment(tag: string, amount: string): Promise<{ uuid: string; requestId: string }> {
    const created = await createFundRequest(requestDeps(database.db, sb), { tag, amount, description: "Link me", idempotencyKey: newKey("pay") }, operator);
    if (created.kind !== "created" || !created.request.requestId) throw new Error(`create gave ${created.kind}`);
    const requestId = created.request.requestId;
    await control.accept(requestId);
    const d = await waitFor("the sandbox's webhook", async () => (await deliveries()).find((x) => String(x.request_id) === requestId));
    const result = await processDelivery(
      { db: database.db, apiKey: sb.apiKey, amountUnit: "major" },
      { raw: Buffer.from(d.body), signature: d.signature, contentType: "application/json", remoteAddr: null },
    );
    if (!result.recordedUuid) throw new Error(`intake answered ${result.status} ${result.message}`);
    return { uuid: result.recordedUuid, requestId };
  }

  async function paymentRow(uuid: string) {
    const [row] = await database.db.select().from(payments).where(eq(payments.uuid, uuid));
    return row;
  }

  it("verifies a real sandbox payment at the verify host", async () => {
    const { uuid } = await acceptedPayment(newTag("verify"), "2000.00");
    expect((await paymentRow(uuid))?.verification).toBe("unverified");
    expect(await verifyPayment(deps(), uuid)).toEqual({ verification: "verified" });
    const row = await paymentRow(uuid);
    expect(row?.verification).toBe("verified");
    expect(row?.verifiedAt).toBeInstanceOf(Date);
  });

  it("makes one attempt while the verify host is down and leaves the retrying to the job; the last attempt fails with a reason", async () => {
    const { uuid } = await acceptedPayment(newTag("down"), "300.00");
    await control.fault("/api/v1/transaction/", "500");
    await control.resetStats();
    const first = await verifyPayment(deps(), uuid);
    expect(first).toMatchObject({ verification: "unverified", error: { kind: "server_error" } });
    expect(await paymentRow(uuid)).toMatchObject({ verification: "unverified", verificationAttempts: 1 });
    // The job's run fails, so its queue policy retries it (nothing waits inside the job).
    await expect(followUpPayment(deps(), uuid)).rejects.toMatchObject({ kind: "server_error" });
    expect((await paymentRow(uuid))?.verificationAttempts).toBe(2);
    // The attempt that reaches the limit gives up with a reason a person can act on.
    await database.db
      .update(payments)
      .set({ verificationAttempts: MAX_VERIFY_ATTEMPTS - 1 })
      .where(eq(payments.uuid, uuid));
    const last = await verifyPayment(deps(), uuid);
    expect(last.verification).toBe("failed");
    const row = await paymentRow(uuid);
    expect(row?.verification).toBe("failed");
    expect(row?.verificationError).toMatch(new RegExp(`Could not verify after ${MAX_VERIFY_ATTEMPTS} attempts: .*Use Re-verify`));
    await control.clearFaults();
    expect(await verifyPayment(deps(), uuid)).toEqual({ verification: "verified" });
  });

  it("a retried job that finds the payment verified meanwhile (a Re-verify) leaves it verified", async () => {
    const { uuid } = await acceptedPayment(newTag("reverified"), "400.00");
    await control.fault("/api/v1/transaction/", "500");
    await expect(followUpPayment(deps(), uuid)).rejects.toMatchObject({ kind: "server_error" });
    // What a successful Re-verify writes before the queue retries the job.
    await database.db.update(payments).set({ verification: "verified", verificationError: null, verifiedAt: new Date() }).where(eq(payments.uuid, uuid));
    await followUpPayment(deps(), uuid);
    expect(await paymentRow(uuid)).toMatchObject({ verification: "verified", verificationError: null, verificationAttempts: 1 });
  });

  it("fails with the reason when the verify host reports a different amount", async () => {
    const { uuid } = await acceptedPayment(newTag("tamper"), "1000.00");
    const res = await fetch(`${sb.apiUrl}/sandbox/transactions/${uuid}/override`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 10 }),
    });
    expect(res.status).toBe(200);
    const verdict = await verifyPayment(deps(), uuid);
    expect(verdict).toEqual({
      verification: "failed",
      mismatch: true,
      reason: "The verify host reports amount NGN 10.00, but the payment notice said NGN 1,000.00.",
    });
    // Marked a disagreement: an amount_mismatch exception, not verification_failed (lib/exceptions).
    expect([(await paymentRow(uuid))?.verificationError, (await paymentRow(uuid))?.verificationMismatch]).toEqual([expect.stringContaining("NGN 10.00"), true]);
  });

  it("links to the one matching request at once, accepted at the payment's time, and confirms it at the service afterwards", async () => {
    const tag = newTag("one");
    const { uuid, requestId } = await acceptedPayment(tag, "750.00");
    await control.resetStats();
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: true, requestId });
    // Nothing was asked of the service: the request counts as accepted the moment the payment is recorded.
    expect(await control.count(FETCH_CALL)).toBe(0);
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    const payment = await paymentRow(uuid);
    expect(request).toMatchObject({ paymentUuid: uuid, status: "accepted", decidedAt: payment?.receivedAt });
    expect(payment).toMatchObject({ linkNote: null, linkConfirmedAt: null });
    // A second attempt does not double-link.
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: false, note: "already linked" });
    expect(await confirmLink(deps(), uuid)).toBe("confirmed");
    expect(await control.count(FETCH_CALL)).toBe(1);
    expect((await paymentRow(uuid))?.linkConfirmedAt).toBeInstanceOf(Date);
    expect(await confirmLink(deps(), uuid)).toBe("nothing to confirm");
  });

  /** A payment row matching a request the person has not paid at the service (what a mistaken notice would be). */
  async function unpaidMatch(tag: string, amount: string): Promise<{ uuid: string; requestId: string }> {
    const created = await createFundRequest(requestDeps(database.db, sb), { tag, amount, description: "Not paid", idempotencyKey: newKey("unpaid") }, operator);
    if (created.kind !== "created" || !created.request.requestId) throw new Error(`create gave ${created.kind}`);
    const uuid = crypto.randomUUID();
    await database.db.insert(payments).values({
      uuid,
      type: "peer-transfer.success",
      amount,
      actualAmount: amount,
      settledAmount: amount,
      fees: "0.00",
      description: "Not paid",
      customerName: "Someone",
      customerTag: tag,
      peerTag: tag,
    });
    return { uuid, requestId: created.request.requestId };
  }

  it("undoes a link the service contradicts (declined), saying so on both records", async () => {
    const tag = newTag("contra");
    const { uuid, requestId } = await unpaidMatch(tag, "310.00");
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: true, requestId });
    await control.decline(requestId);
    expect(await confirmLink(deps(), uuid)).toBe("undone");
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    expect(request).toMatchObject({ status: "declined", paymentUuid: null, error: expect.stringContaining("the link was undone") });
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: null, linkNote: expect.stringContaining(`request #${requestId}`) });
  });

  it("believes a service still saying pending for a while (the job asks again), then undoes the link", async () => {
    const tag = newTag("slow");
    const { uuid, requestId } = await unpaidMatch(tag, "320.00");
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: true, requestId });
    await expect(followUpPayment(deps(), uuid)).rejects.toThrow(/does not yet say the linked request is accepted/);
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: expect.any(String), linkConfirmedAt: null });
    const later = new Date(Date.now() + PENDING_GRACE_MS + 1_000);
    expect(await confirmLink(deps(), uuid, later)).toBe("undone");
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    expect(request).toMatchObject({ status: "pending", paymentUuid: null, decidedAt: null });
    expect((await paymentRow(uuid))?.linkNote).toContain("is pending");
  });

  it("when our own budget has no room to confirm a link, keeps the link waiting, still verifies, and fails the job so it retries", async () => {
    const tag = newTag("noroom");
    const { uuid } = await acceptedPayment(tag, "640.00");
    // The real shared budget, already full for background calls (limit 3): the confirmation is refused before any call.
    let spent = 0;
    while ((await spendServiceCall(database.db, "background", 3)).ok) spent += 1;
    expect(spent).toBeLessThan(3);
    const full: PaymentDeps = requestDeps(database.db, sb, {
      service: {
        beforeApiCall: budgetGate(
          async () => database.db,
          () => "background",
          3,
        ),
      },
    });
    await expect(followUpPayment(full, uuid)).rejects.toMatchObject({ budgetRefused: true });
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: expect.any(String), linkNote: null, linkConfirmedAt: null, verification: "verified" });
    // With room again (a budget that admits), the retried job confirms it.
    await followUpPayment(deps(), uuid);
    expect((await paymentRow(uuid))?.linkConfirmedAt).toBeInstanceOf(Date);
  });

  /** A request through our own create path, still pending at the sandbox. */
  async function pendingRequest(tag: string, amount: string, label: string): Promise<string> {
    const created = await createFundRequest(requestDeps(database.db, sb), { tag, amount, description: label, idempotencyKey: newKey(label) }, operator);
    if (created.kind !== "created" || !created.request.requestId) throw new Error(`create gave ${created.kind}`);
    return created.request.requestId;
  }

  async function requestRow(requestId: string) {
    const [row] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    return row;
  }

  it("with two open requests of the same amount, links to the one the service says was accepted (the newer), confirmed by that answer", async () => {
    const tag = newTag("chased");
    const first = await pendingRequest(tag, "500", "first-ask");
    // The chase round's request is the one the person accepts; the first ask stays pending at the service.
    const { uuid, requestId: second } = await acceptedPayment(tag, "500");
    await control.resetStats();
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: true, requestId: second });
    expect(await control.count(FETCH_CALL)).toBe(2);
    expect(await requestRow(second)).toMatchObject({ status: "accepted", paymentUuid: uuid });
    expect(await requestRow(first)).toMatchObject({ status: "pending", paymentUuid: null });
    expect(await paymentRow(uuid)).toMatchObject({ linkNote: null, linkConfirmedAt: expect.any(Date) });
    // Confirmed by the answer that chose it: the follow-up asks nothing more about the link.
    expect(await confirmLink(deps(), uuid)).toBe("nothing to confirm");
  });

  it("with both requests accepted, two payments link one each, in order", async () => {
    const tag = newTag("both");
    const a = await acceptedPayment(tag, "250");
    const b = await acceptedPayment(tag, "250");
    const linkedA = await linkPayment(deps(), a.uuid);
    const linkedB = await linkPayment(deps(), b.uuid);
    expect([linkedA, linkedB]).toEqual([
      { linked: true, requestId: a.requestId },
      { linked: true, requestId: b.requestId },
    ]);
    expect((await requestRow(a.requestId))?.paymentUuid).toBe(a.uuid);
    expect((await requestRow(b.requestId))?.paymentUuid).toBe(b.uuid);
  });

  it("when the service says none of several was accepted: asks again within the grace, then stays unlinked naming the candidates", async () => {
    const tag = newTag("two");
    const first = await pendingRequest(tag, "510", "twin-a");
    const second = await pendingRequest(tag, "510", "twin-b");
    const { uuid } = await unpaidMatch(tag, "510.00");
    await expect(linkPayment(deps(), uuid)).rejects.toThrow(/does not yet say which matching request was accepted/);
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: null, linkNote: null });
    const later = new Date(Date.now() + PENDING_GRACE_MS + 1_000);
    const outcome = await linkPayment(deps(), uuid, later);
    expect(outcome).toEqual({ linked: false, note: expect.stringContaining("3 open requests to @") });
    const note = (await paymentRow(uuid))?.linkNote ?? "";
    expect(note).toContain(`request #${first} (pending)`);
    expect(note).toContain(`request #${second} (pending)`);
    expect(note).toContain("the service says none of them was accepted");
    expect((await paymentRow(uuid))?.fundRequestId).toBeNull();
  });

  it("a follow-up run asks the service about a payment's open requests once, and is retried when they are all pending", async () => {
    const tag = newTag("once-a-run");
    await pendingRequest(tag, "530", "once-a");
    await pendingRequest(tag, "530", "once-b");
    const { uuid } = await unpaidMatch(tag, "530.00");
    await control.resetStats();
    await expect(followUpBatch(deps(), [uuid], 30)).rejects.toThrow(/steps of 1 follow-ups failed: .*does not yet say which matching request/);
    // Three open requests of that amount, all pending at the service: each asked once in the run, not twice.
    expect(await control.count(FETCH_CALL)).toBe(3);
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: null, linkNote: null });
  });

  it("a declined twin is moved to declined by the answer and the accepted one is linked", async () => {
    const tag = newTag("declined-twin");
    const first = await pendingRequest(tag, "520", "twin-declined");
    await control.decline(first);
    const { uuid, requestId } = await acceptedPayment(tag, "520");
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: true, requestId });
    expect(await requestRow(first)).toMatchObject({ status: "declined", paymentUuid: null });
  });

  it("stays unlinked when no request matches (another amount)", async () => {
    const tag = newTag("none");
    const { uuid, requestId } = await acceptedPayment(tag, "100");
    await database.db.update(fundRequests).set({ amount: "101.00" }).where(eq(fundRequests.requestId, requestId));
    expect(await linkPayment(deps(), uuid)).toEqual({ linked: false, note: expect.stringContaining("No open request to @") });
  });

  it("the sweeper finishes a payment whose follow-up work a restart interrupted", async () => {
    const tag = newTag("sweep");
    const { uuid, requestId } = await acceptedPayment(tag, "42.00");
    await database.db
      .update(payments)
      .set({ receivedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(payments.uuid, uuid));
    expect(await sweepOnce(deps())).toBeGreaterThanOrEqual(1);
    const row = await paymentRow(uuid);
    expect(row?.verification).toBe("verified");
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    expect(request?.paymentUuid).toBe(uuid);
  });

  it("a link the service could not be asked about is confirmed by the sweeper", async () => {
    const tag = newTag("relink");
    const { uuid, requestId } = await acceptedPayment(tag, "43.00");
    await control.fault(FETCH_PATH, "500");
    await expect(followUpPayment(deps(), uuid)).rejects.toMatchObject({ kind: "server_error" });
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: expect.any(String), linkConfirmedAt: null });
    await control.clearFaults();
    await database.db
      .update(payments)
      .set({ receivedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(payments.uuid, uuid));
    await sweepOnce(deps());
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: expect.any(String), linkNote: null, linkConfirmedAt: expect.any(Date) });
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    expect(request?.paymentUuid).toBe(uuid);
  });

  it("the sweeper marks a request a stopped process left sending unknown (never failed), and leaves a fresh one alone", async () => {
    const values = { tag: newTag("abandoned"), amount: "5.00", description: "Cut off", status: "sending" as const };
    const [old] = await database.db
      .insert(fundRequests)
      .values({ ...values, reference: `fb_${newKey("old")}`, idempotencyKey: newKey("old"), createdAt: new Date(Date.now() - 10 * 60_000) })
      .returning();
    const [fresh] = await database.db
      .insert(fundRequests)
      .values({ ...values, reference: `fb_${newKey("new")}`, idempotencyKey: newKey("new") })
      .returning();
    await sweepOnce(deps());
    const status = async (id: string | undefined) =>
      (
        await database.db
          .select()
          .from(fundRequests)
          .where(eq(fundRequests.id, id ?? ""))
      )[0];
    expect(await status(old?.id)).toMatchObject({ status: "unknown", error: expect.stringContaining("whether the service received it is unknown") });
    expect(await status(fresh?.id)).toMatchObject({ status: "sending", error: null });
  });

  it("a request in flight when its process died ends accepted when its person pays", async () => {
    const tag = newTag("inflight");
    // What a SIGKILL between the service's answer and our record leaves: the service has the request, we have `sending`.
    const [row] = await database.db
      .insert(fundRequests)
      .values({
        tag,
        amount: "730.00",
        description: "Killed mid-call",
        status: "sending",
        reference: `fb_${newKey("cut")}`,
        idempotencyKey: newKey("cut"),
        createdAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    const service = requestDeps(database.db, sb);
    const { requestId } = await service.service.createFundRequest({
      amount: 730,
      tag,
      description: "Killed mid-call",
      meta: { notificationUrl: service.webhookUrl, transactionReference: row?.reference ?? "" },
    });
    await sweepOnce(deps());
    const cut = async () =>
      (
        await database.db
          .select()
          .from(fundRequests)
          .where(eq(fundRequests.id, row?.id ?? ""))
      )[0];
    expect((await cut())?.status).toBe("unknown");
    await control.accept(requestId);
    const d = await waitFor("the sandbox's webhook", async () => (await deliveries()).find((x) => String(x.request_id) === requestId));
    const result = await processDelivery(
      { db: database.db, apiKey: sb.apiKey, amountUnit: "major" },
      { raw: Buffer.from(d.body), signature: d.signature, contentType: "application/json", remoteAddr: null },
    );
    const uuid = result.recordedUuid ?? "";
    expect(await linkPayment(deps(), uuid)).toMatchObject({ linked: true });
    expect(await cut()).toMatchObject({ status: "accepted", paymentUuid: uuid });
    expect(await paymentRow(uuid)).toMatchObject({ fundRequestId: row?.id, linkConfirmedAt: expect.any(Date) });
  });

  it("never moves a linked, accepted request back, whatever arrives later", async () => {
    const tag = newTag("late");
    const { uuid, requestId } = await acceptedPayment(tag, "60");
    await linkPayment(deps(), uuid);
    const stale = await requestDeps(database.db, sb).service.getFundRequest(requestId);
    for (const status of ["pending", "declined"] as const) {
      await applyFetched(requestDeps(database.db, sb), { ...stale, request_status: status });
    }
    const [request] = await database.db.select().from(fundRequests).where(eq(fundRequests.requestId, requestId));
    expect(request?.status).toBe("accepted");
    expect(request?.paymentUuid).toBe(uuid);
  });

  it("a follow-up batch notes together the payments no request matches, links the one that matches, and saves one event a verdict", async () => {
    const tag = newTag("batch");
    const paid = await acceptedPayment(tag, "710.00");
    // Two notices for the same tag at an amount no request has, which the verify host does not know.
    const strangers = [crypto.randomUUID(), crypto.randomUUID()];
    for (const uuid of strangers)
      await database.db.insert(payments).values({
        uuid,
        type: "peer-transfer.success",
        amount: "999.00",
        actualAmount: "990.00",
        settledAmount: "990.00",
        fees: "9.00",
        description: "No request",
        customerName: "Someone",
        customerTag: tag,
        peerTag: tag,
      });
    const all = [paid.uuid, ...strangers];
    await followUpBatch(deps(), all, 30);
    expect(await paymentRow(paid.uuid)).toMatchObject({
      fundRequestId: expect.any(String),
      linkNote: null,
      linkConfirmedAt: expect.any(Date),
      verification: "verified",
    });
    for (const uuid of strangers)
      expect(await paymentRow(uuid)).toMatchObject({
        fundRequestId: null,
        linkNote: expect.stringContaining(`No open request to @${tag} for`),
        verification: "failed",
        verificationError: "The verify host does not know this transaction.",
      });
    const verdictEvents = async () =>
      (
        await database.db
          .select({ type: events.type, data: events.data })
          .from(events)
          .where(inArray(events.type, ["payment.verified", "payment.verification_failed"]))
      )
        .filter((e) => all.includes(String((e.data as { uuid?: string }).uuid)))
        .map((e) => `${(e.data as { uuid: string }).uuid}:${e.type}`)
        .sort();
    const expected = [`${paid.uuid}:payment.verified`, ...strangers.map((u) => `${u}:payment.verification_failed`)].sort();
    expect(await verdictEvents()).toEqual(expected);
    // Asked again, the same verdicts add no events.
    const again = await verifyPayments(deps(), all);
    expect([...again.values()].map((o) => o.verification).sort()).toEqual(["failed", "failed", "verified"]);
    expect(await verdictEvents()).toEqual(expected);
  });
});

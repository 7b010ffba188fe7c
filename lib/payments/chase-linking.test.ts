import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { askAgain } from "@/lib/campaigns/ask-again";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { getCampaignView } from "@/lib/campaigns/queries";
import { createCampaign, transitionCampaign } from "@/lib/campaigns/repo";
import { campaignRowKey, sendCampaignRows } from "@/lib/campaigns/send";
import { koboToNaira, nairaToKobo } from "@/lib/client/money";
import { exceptions, fundRequests, payments } from "@/lib/db/schema";
import { scanExceptions } from "@/lib/exceptions/detect";
import { readPayerDetail } from "@/lib/payers/queries";
import { processDelivery } from "@/lib/webhooks/intake";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { waitFor } from "@/tests/support/wait-for";

import { accountingCsv, paymentsForExport } from "./accounting-export";
import { linkPayment } from "./link";

// Month end after a chase round (docs/decisions.md, "Month end without clean-up"): everyone asked twice who paid once
// is linked to the request the service says was accepted, with no exception; one who paid both rounds is one
// second-payment exception and shows "paid twice"; the round's collected is the settled sum of its linked payments.

describe.each(dbTargets())("a chase round's payments on $name", (target) => {
  const database = useTestDatabase(target);
  let sb: Sandbox;
  let control: SandboxControl;
  let operator: { id: string; name: string };
  beforeAll(async () => {
    sb = await startTestSandbox();
    control = sandboxControl(sb);
    operator = await insertStaff(database.db, "Chase Operator");
  });
  afterAll(async () => sb.close());

  const deps = () => requestDeps(database.db, sb, { service: { getRetries: 0 } });

  async function requestIdOf(campaignId: string, row: number): Promise<string> {
    const [r] = await database.db
      .select({ requestId: fundRequests.requestId })
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, campaignRowKey(campaignId, row)));
    if (!r?.requestId) throw new Error(`row ${row} has no request`);
    return r.requestId;
  }

  /** The person pays at the sandbox; its signed notice goes through our intake and linking. */
  async function pays(requestId: string): Promise<string> {
    await control.accept(requestId);
    const d = await waitFor("the sandbox's webhook", async () => (await control.deliveries()).find((x) => String(x.request_id) === requestId));
    const result = await processDelivery(
      { db: database.db, apiKey: sb.apiKey, amountUnit: "major" },
      { raw: Buffer.from(d.body), signature: d.signature, contentType: "application/json", remoteAddr: null },
    );
    if (!result.recordedUuid) throw new Error(`intake answered ${result.status}`);
    await linkPayment(deps(), result.recordedUuid);
    await scanExceptions(database.db, { paymentUuids: [result.recordedUuid], now: new Date(), lostWebhookMinutes: 15 });
    return result.recordedUuid;
  }

  it("links every payer to the request the service says was accepted; paying both rounds is one second payment", async () => {
    const [early, late, twice] = [newTag("early"), newTag("late"), newTag("twice")];
    // The business's own references ride along from the file to the round, the requests, the payments and the export.
    const csv = `Reference,tag,amount,description\nINV-1,${early},15000,Dues\nINV-2,${late},20000,Dues\n,${twice},25000,Dues\n`;
    const parsed = parseCampaignCsv(new TextEncoder().encode(csv));
    if (!parsed.ok) throw new Error(parsed.message);
    const first = await createCampaign(database.db, "November balances", parsed.rows, operator.id);
    await transitionCampaign(database.db, first, "start", operator.id);
    expect(await sendCampaignRows(deps(), 10)).toMatchObject({ more: false });
    const round = await askAgain(database.db, first, { include: ["unanswered"], unansweredForHours: 0 }, operator.id);
    if (round.kind !== "made") throw new Error(`expected a round, got ${round.kind}`);
    await transitionCampaign(database.db, round.id, "start", operator.id);
    expect(await sendCampaignRows(deps(), 10)).toMatchObject({ sent: 3, more: false });

    // Each person holds two open requests of one amount. One pays the first ask, one the chase, one both.
    const earlyPaid = await pays(await requestIdOf(first, 1));
    const latePaid = await pays(await requestIdOf(round.id, 2));
    const twiceFirst = await pays(await requestIdOf(first, 3));
    const twiceSecond = await pays(await requestIdOf(round.id, 3));

    const linked = await database.db
      .select({ uuid: payments.uuid, requestId: fundRequests.requestId })
      .from(payments)
      .innerJoin(fundRequests, eq(fundRequests.id, payments.fundRequestId))
      .where(inArray(payments.uuid, [earlyPaid, latePaid, twiceFirst, twiceSecond]));
    expect(new Map(linked.map((l) => [l.uuid, l.requestId]))).toEqual(
      new Map([
        [earlyPaid, await requestIdOf(first, 1)],
        [latePaid, await requestIdOf(round.id, 2)],
        [twiceFirst, await requestIdOf(first, 3)],
        [twiceSecond, await requestIdOf(round.id, 3)],
      ]),
    );
    const open = await database.db
      .select({ kind: exceptions.kind, paymentUuid: exceptions.paymentUuid })
      .from(exceptions)
      .where(and(eq(exceptions.status, "open"), inArray(exceptions.paymentUuid, [earlyPaid, latePaid, twiceFirst, twiceSecond])));
    expect(open).toEqual([{ kind: "duplicate_payment", paymentUuid: twiceSecond }]);
    expect((await readPayerDetail(database.db, twice, "admin"))?.payer.overpaid).toBe(1);
    expect((await readPayerDetail(database.db, late, "admin"))?.payer.overpaid).toBe(0);

    // The round counts what its linked payments settled, after fees.
    const settled = await database.db
      .select({ settled: payments.settledAmount })
      .from(payments)
      .where(inArray(payments.uuid, [latePaid, twiceSecond]));
    const view = await getCampaignView(database.db, round.id);
    const sum = settled.reduce((kobo, s) => kobo + (nairaToKobo(s.settled) ?? 0n), 0n);
    expect(view?.amounts.collected).toBe(koboToNaira(sum));
    expect(view?.amounts.collected).not.toBe("0.00");

    const [lateRequest] = await database.db
      .select()
      .from(fundRequests)
      .where(eq(fundRequests.requestId, await requestIdOf(round.id, 2)));
    expect(lateRequest?.businessReference).toBe("INV-2");
    const xero = accountingCsv("xero", (await paymentsForExport(database.db, {}, "Africa/Lagos")) ?? [], "Africa/Lagos");
    const line = xero.split("\r\n").find((l) => l.includes(latePaid) && !l.includes("Fee:"));
    expect(line?.endsWith(`,INV-2 (${late})`)).toBe(true);
    const plain = xero.split("\r\n").find((l) => l.includes(twiceFirst) && !l.includes("Fee:"));
    expect(plain?.endsWith(`,${twice}`)).toBe(true);
  });
});

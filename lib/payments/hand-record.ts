import "server-only";

import { randomUUID } from "node:crypto";

import { koboToNaira } from "@/lib/client/money";
import type { Db } from "@/lib/db/client";
import { payments, type FundRequestRow } from "@/lib/db/schema";

import { adjustKeptHour } from "./hour-totals";
import { announce } from "@/lib/live/notify";

// The payments half of settling a lost notice by hand (lib/exceptions/record-by-hand.ts runs it in its transaction):
// a payment marked `hand`, never verified, replaced by the late notice (lib/payments/link.ts replaceHandRecord).

export interface HandPaymentRecord {
  uuid: string;
  receivedAt: Date;
  actualAmount: string;
  fees: string;
}

/**
 * Inserts the hand record linked to `request`, dated when the person accepted (the day the money moved, so that
 * day's unexplained balance change is explained), into an hour that may already be summed.
 */
export async function insertHandPayment(
  tx: Db,
  request: Pick<FundRequestRow, "id" | "tag" | "amount" | "description" | "requestedSentTo" | "decidedAt">,
  paid: { amountKobo: bigint; feesKobo: bigint; reference: string },
  recordedByName: string,
  now = new Date(),
  uuid: string = randomUUID(),
): Promise<HandPaymentRecord> {
  const receivedAt = request.decidedAt ?? now;
  const sums = {
    amount: request.amount,
    actualAmount: koboToNaira(paid.amountKobo),
    fees: koboToNaira(paid.feesKobo),
    settledAmount: koboToNaira(paid.amountKobo - paid.feesKobo),
  };
  await tx.insert(payments).values({
    uuid,
    type: "recorded-by-hand",
    source: "hand",
    ...sums,
    receivedAt,
    description: request.description,
    customerName: request.requestedSentTo?.name ?? request.tag,
    customerTag: request.tag,
    peerTag: request.tag,
    fundRequestId: request.id,
    // Confirmed by the person (the audit row says who); never sent to the verify host.
    linkConfirmedAt: now,
    recordedByName,
    handReference: paid.reference,
  });
  await announce(tx, { type: "payment.recorded", uuid });
  await adjustKeptHour(tx, { receivedAt, ...sums }, 1);
  return { uuid, receivedAt, actualAmount: sums.actualAmount, fees: sums.fees };
}

import "server-only";

import type { Db } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";
import { serviceAmountToNaira, type AmountUnit } from "@/lib/client/money";
import { appendEvent } from "@/lib/events/append";
import { announce } from "@/lib/live/notify";
import type { PeerTransferPayload } from "@/lib/service/schemas";
import { logDelivery, type DeliveryLog } from "@/lib/webhooks/delivery-log";

import { toPaymentView } from "./view";

/**
 * The payment and its delivery-log row in one transaction. The primary key on the transaction
 * uuid decides "already recorded?": a repeat inserts nothing and is logged as a duplicate.
 */
export async function recordPayment(
  db: Db,
  payload: PeerTransferPayload,
  unit: AmountUnit,
  log: Omit<DeliveryLog, "outcome" | "httpStatus" | "uuid" | "eventType">,
): Promise<"recorded" | "duplicate"> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(payments)
      .values({
        uuid: payload.uuid.toLowerCase(),
        type: payload.type,
        amount: serviceAmountToNaira(payload.amount, unit),
        actualAmount: serviceAmountToNaira(payload.actual_amount, unit),
        settledAmount: serviceAmountToNaira(payload.settled_amount, unit),
        fees: serviceAmountToNaira(payload.fees, unit),
        description: payload.description,
        paypoint: payload.paypoint ?? false,
        customerUuid: payload.customer.uuid ?? null,
        customerName: payload.customer.name,
        customerTag: payload.customer.tag,
        customerEmail: payload.customer.email ?? null,
        customerPhone: payload.customer.phone ?? null,
        customerAvatar: payload.customer.avatar ?? null,
        peerTag: payload.meta.peer_tag,
      })
      .onConflictDoNothing({ target: payments.uuid })
      .returning();
    const outcome = inserted.length > 0 ? "recorded" : "duplicate";
    // A repeat delivery is no new payment: only the first has its event (docs/architecture.md "Events").
    const [row] = inserted;
    if (row) {
      await appendEvent(tx, "payment.received", toPaymentView(row, null, "admin"));
      await announce(tx, { type: "payment.recorded", uuid: row.uuid });
    }
    await logDelivery(tx, { ...log, outcome, httpStatus: 200, uuid: payload.uuid.toLowerCase(), eventType: payload.type });
    return outcome;
  });
}

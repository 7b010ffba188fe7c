import "server-only";

import type { Db } from "@/lib/db/client";
import { safeErrorSummary } from "@/lib/log/safe-error";
import type { AmountUnit } from "@/lib/client/money";
import { recordPayment } from "@/lib/payments/record";
import { logDelivery } from "./delivery-log";
import { PEER_TRANSFER_SUCCESS, peerTransferPayloadSchema } from "@/lib/service/schemas";

import { redactBody } from "./redact";
import { rejectionLogFor, type RejectionLog } from "./rejection-log";
import { verifySignature } from "./signature";

export const MAX_WEBHOOK_BYTES = 64 * 1024;

export interface IntakeDeps {
  db: Db;
  apiKey: string;
  amountUnit: AmountUnit;
  /** Where unauthenticated rejections are tallied; the process's log for `db` when unset. */
  rejections?: RejectionLog;
}

export interface Delivery {
  /** Null when the body was larger than MAX_WEBHOOK_BYTES (not read further). */
  raw: Buffer | null;
  signature: string | null;
  contentType: string | null;
  remoteAddr: string | null;
}

export interface IntakeResult {
  status: 200 | 400 | 401 | 413 | 415 | 500;
  message: string;
  /** Set when a new payment was recorded: browsers are told after the commit. */
  recordedUuid: string | null;
  /** Set for a new payment and a repeat alike: its follow-up job is queued before the 200 (a no-op when it exists). */
  paymentUuid?: string;
}

const MAX_AMOUNT = 1e13;

/**
 * docs/architecture.md steps 1–4: size, signature, content type, shape, then the payment and its log row in
 * one transaction. Every outcome is logged; only a valid peer-transfer.success records a payment.
 * Nothing containing the bvn is written. Unauthenticated rejections (too large, bad signature) are
 * handed to the rejection log and answered without waiting on the database (docs/architecture.md).
 */
export async function processDelivery(deps: IntakeDeps, d: Delivery): Promise<IntakeResult> {
  const { db } = deps;
  const base = { remoteAddr: d.remoteAddr };
  if (d.raw === null) {
    (deps.rejections ?? rejectionLogFor(db)).note({ ...base, outcome: "too_large", httpStatus: 413, detail: `body over ${MAX_WEBHOOK_BYTES} bytes` });
    return { status: 413, message: `The body is larger than ${MAX_WEBHOOK_BYTES} bytes.`, recordedUuid: null };
  }

  const verdict = verifySignature(d.raw, d.signature, deps.apiKey);
  if (verdict !== "valid" && verdict !== "valid_reserialised") {
    // Noted without its body; the tally folds a flood from one source into a count.
    (deps.rejections ?? rejectionLogFor(db)).note({ ...base, outcome: "bad_signature", httpStatus: 401, detail: `signature ${verdict}` });
    return { status: 401, message: "The signature does not match this body.", recordedUuid: null };
  }

  const text = d.raw.toString("utf8");
  const body = redactBody(text);
  if (!/^application\/json\b/i.test(d.contentType ?? "")) {
    await logDelivery(db, { ...base, outcome: "bad_content_type", httpStatus: 415, body, detail: `content type ${d.contentType ?? "missing"}` });
    return { status: 415, message: "Send the event as application/json.", recordedUuid: null };
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    await logDelivery(db, { ...base, outcome: "bad_payload", httpStatus: 400, body, detail: "not valid JSON" });
    return { status: 400, message: "The body is not valid JSON.", recordedUuid: null };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    await logDelivery(db, { ...base, outcome: "bad_payload", httpStatus: 400, body, detail: "not a JSON object" });
    return { status: 400, message: "The body must be a JSON object.", recordedUuid: null };
  }
  const type = (json as { type?: unknown }).type;
  if (typeof type === "string" && type !== PEER_TRANSFER_SUCCESS) {
    // Acknowledged so the service stops retrying, but nothing to record.
    await logDelivery(db, { ...base, outcome: "unknown_type", httpStatus: 200, eventType: type.slice(0, 100), body });
    return { status: 200, message: `Event type ${type.slice(0, 100)} acknowledged; not recorded.`, recordedUuid: null };
  }

  const parsed = peerTransferPayloadSchema.safeParse(json);
  const amountsOk =
    parsed.success &&
    [parsed.data.amount, parsed.data.actual_amount, parsed.data.settled_amount, parsed.data.fees].every((n) => Number.isFinite(n) && n >= 0 && n < MAX_AMOUNT);
  if (!parsed.success || !amountsOk) {
    const detail = parsed.success
      ? "an amount is negative or too large"
      : parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.join(".") || "body"}: ${i.message}`)
          .join("; ");
    await logDelivery(db, { ...base, outcome: "bad_payload", httpStatus: 400, eventType: typeof type === "string" ? type : null, body, detail });
    return { status: 400, message: `The payload does not fit peer-transfer.success: ${detail}`, recordedUuid: null };
  }

  try {
    const outcome = await recordPayment(db, parsed.data, deps.amountUnit, {
      ...base,
      body,
      detail: verdict === "valid_reserialised" ? "signature over re-serialised JSON" : null,
    });
    const paymentUuid = parsed.data.uuid.toLowerCase();
    return outcome === "recorded"
      ? { status: 200, message: "Payment recorded.", recordedUuid: paymentUuid, paymentUuid }
      : { status: 200, message: "Already recorded; nothing changed.", recordedUuid: null, paymentUuid };
  } catch (error) {
    console.error(`[webhook] could not record the payment: ${safeErrorSummary(error)}`);
    await logDelivery(db, {
      ...base,
      outcome: "error",
      httpStatus: 500,
      uuid: parsed.data.uuid,
      eventType: parsed.data.type,
      body,
      detail: "database write failed",
    }).catch((logError: unknown) => console.error(`[webhook] could not log the failed delivery: ${safeErrorSummary(logError)}`));
    return { status: 500, message: "The payment could not be recorded; please retry.", recordedUuid: null };
  }
}

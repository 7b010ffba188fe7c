import "server-only";

import { randomBytes } from "node:crypto";

import { publish } from "@/lib/live/bus";
import { koboToServiceAmount, nairaToKobo } from "@/lib/money";
import { ServiceError } from "@/lib/service/errors";

import type { RequestDeps } from "./deps";
import { createdByName, findRequestByIdempotencyKey, insertSending, markFailed, markPending } from "./repo";
import type { NewRequest } from "./schemas";
import { toRequestView, type FundRequestView } from "./view";

export type CreateOutcome =
  | { kind: "created"; request: FundRequestView }
  | { kind: "replayed"; request: FundRequestView }
  | { kind: "key_reused"; request: FundRequestView }
  | { kind: "service_failed"; request: FundRequestView; error: ServiceError };

export function newReference(): string {
  return `fb_${randomBytes(9).toString("base64url")}`;
}

/**
 * Records the request (status `sending`), asks the service, and records the answer. The same
 * idempotency key again returns the first record without calling the service: the unique
 * constraint on the key decides, so a double-click racing itself still makes one request.
 */
export async function createFundRequest(deps: RequestDeps, input: NewRequest, staff: { id: string; name: string }): Promise<CreateOutcome> {
  const { db } = deps;
  const reference = newReference();
  const row = await insertSending(db, {
    reference,
    idempotencyKey: input.idempotencyKey,
    tag: input.tag,
    amount: input.amount,
    description: input.description,
    createdBy: staff.id,
  });

  if (!row) {
    const existing = await findRequestByIdempotencyKey(db, input.idempotencyKey);
    if (!existing) throw new Error("idempotency key conflict without a row");
    const view = toRequestView(existing, await createdByName(db, existing.createdBy));
    const same = existing.tag === input.tag && existing.amount === input.amount && existing.description === input.description;
    return { kind: same ? "replayed" : "key_reused", request: view };
  }
  publish({ type: "request.updated", id: row.id, requestId: null, status: row.status });

  const kobo = nairaToKobo(input.amount);
  if (kobo === null) throw new Error(`unparseable stored amount ${input.amount}`);
  try {
    const { requestId } = await deps.service.createFundRequest({
      amount: koboToServiceAmount(kobo, deps.amountUnit),
      tag: input.tag,
      description: input.description,
      meta: { notificationUrl: deps.webhookUrl, transactionReference: reference },
    });
    let pending;
    try {
      pending = (await markPending(db, row.id, requestId)) ?? row;
    } catch (error) {
      // The unique service id is already ours for another request: record it honestly instead of "our side".
      console.error(`[requests] service request id ${requestId} is already recorded`, error);
      const failed = (await markFailed(db, row.id, `The service answered with request id ${requestId}, which is already recorded for another request. Check the service before sending again.`)) ?? row;
      publish({ type: "request.updated", id: failed.id, requestId: null, status: failed.status });
      return { kind: "service_failed", request: toRequestView(failed, staff.name), error: new ServiceError({ kind: "bad_response", operation: "create", detail: "duplicate request id", outcomeUnknown: true }) };
    }
    publish({ type: "request.updated", id: pending.id, requestId, status: pending.status });
    return { kind: "created", request: toRequestView(pending, staff.name) };
  } catch (error) {
    if (!(error instanceof ServiceError)) {
      await markFailed(db, row.id, "The request could not be sent because of an error on our side.");
      throw error;
    }
    const failed = (await markFailed(db, row.id, error.userMessage)) ?? row;
    publish({ type: "request.updated", id: failed.id, requestId: null, status: failed.status });
    return { kind: "service_failed", request: toRequestView(failed, staff.name), error };
  }
}

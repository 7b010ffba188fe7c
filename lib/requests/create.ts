import "server-only";

import { randomBytes } from "node:crypto";

import { koboToServiceAmount, nairaToKobo } from "@/lib/client/money";
import { ServiceError } from "@/lib/service/errors";

import type { Db } from "@/lib/db/client";
import type { FundRequestRow } from "@/lib/db/schema";

import type { RequestDeps } from "./deps";
import { clientKey, type StoredKey } from "./keys";
import { createdByName, findRequestByIdempotencyKey } from "./repo";
import { deleteSending, insertSending, markFailed, markPending } from "./status";
import type { NewRequest } from "@/lib/client/requests/schemas";
import { toRequestView, type FundRequestView } from "./view";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { processSingleton } from "@/lib/util/process-singleton";

export type CreateOutcome =
  | { kind: "created"; request: FundRequestView }
  | { kind: "replayed"; request: FundRequestView }
  /** The same key is still being sent (by this instance or another) past the wait: never shown as done. */
  | { kind: "in_flight"; request: FundRequestView }
  | { kind: "key_reused"; request: FundRequestView }
  | { kind: "service_failed"; request: FundRequestView; error: ServiceError };

// Longer than a create call can take (10 s timeout plus a retry's backoff), so a repeat sees the answer.
export const REPLAY_WAIT_MS = 15_000;

// The sends under way in this process, by idempotency key: a repeat here awaits the first's end.
function sendsInFlight(): Map<string, Promise<void>> {
  return processSingleton("sends-in-flight", () => new Map<string, Promise<void>>());
}

function trackSend(key: string): () => void {
  let done = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  sendsInFlight().set(key, finished);
  return () => {
    sendsInFlight().delete(key);
    done();
  };
}

/**
 * Waits until the request recorded under `key` has left `sending`, or `waitMs` passed: on the
 * in-process send when it is ours, else by re-reading the row (the first may be on another instance).
 */
async function awaitSent(db: Db, key: StoredKey, row: FundRequestRow, waitMs: number): Promise<FundRequestRow> {
  const deadline = Date.now() + waitMs;
  let current = row;
  let pause = 50;
  while (current.status === "sending" && Date.now() < deadline) {
    const local = sendsInFlight().get(key);
    const left = deadline - Date.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, local ? left : Math.min(pause, left));
      local?.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    pause = Math.min(pause * 2, 500);
    current = (await findRequestByIdempotencyKey(db, key)) ?? current;
  }
  return current;
}

export function newReference(): string {
  return `fb_${randomBytes(9).toString("base64url")}`;
}

/** What a request asks for, without its key. */
export type RequestFields = Pick<NewRequest, "tag" | "amount" | "description"> & {
  businessReference?: string | null;
  /** Extra meta the service keeps with the request (a pay page's name); ours (notificationUrl, the reference) win. */
  meta?: Record<string, string>;
};

/**
 * A request from a client (the form, POST /api/requests): its idempotency key is stored in the
 * client namespace (lib/requests/keys.ts), so it can never take a key the dashboard makes itself.
 */
export async function createFundRequest(
  deps: RequestDeps,
  input: Omit<NewRequest, "businessReference"> & { businessReference?: string },
  staff: { id: string; name: string },
  replayWaitMs = REPLAY_WAIT_MS,
): Promise<CreateOutcome> {
  const { idempotencyKey, ...fields } = input;
  return createKeyedFundRequest(deps, fields, clientKey(idempotencyKey), staff, replayWaitMs);
}

/**
 * Records the request (status `sending`), asks the service, and records the answer. The same
 * idempotency key again returns the first record without calling the service: the unique
 * constraint on the key decides, so a double-click racing itself still makes one request.
 */
export async function createKeyedFundRequest(
  deps: RequestDeps,
  input: RequestFields,
  key: StoredKey,
  staff: { id: string; name: string },
  replayWaitMs = REPLAY_WAIT_MS,
): Promise<CreateOutcome> {
  const { db } = deps;
  const reference = newReference();
  const row = await insertSending(db, {
    reference,
    idempotencyKey: key,
    tag: input.tag,
    amount: input.amount,
    description: input.description,
    businessReference: input.businessReference ?? null,
    createdBy: staff.id,
  });

  if (!row) {
    let existing = await findRequestByIdempotencyKey(db, key);
    if (!existing) throw new Error("idempotency key conflict without a row");
    const same = existing.tag === input.tag && existing.amount === input.amount && existing.description === input.description;
    // A repeat that arrives while the first is still at the service waits for its answer.
    if (same && existing.status === "sending") existing = await awaitSent(db, key, existing, replayWaitMs);
    const view = toRequestView(existing, await createdByName(db, existing.createdBy));
    if (!same) return { kind: "key_reused", request: view };
    return { kind: existing.status === "sending" ? "in_flight" : "replayed", request: view };
  }
  const settled = trackSend(key);
  try {
    return await send(deps, row, input, reference, staff);
  } finally {
    settled();
  }
}

async function send(
  deps: RequestDeps,
  row: FundRequestRow,
  input: RequestFields,
  reference: string,
  staff: { id: string; name: string },
): Promise<CreateOutcome> {
  const { db } = deps;

  const kobo = nairaToKobo(input.amount);
  if (kobo === null) throw new Error(`unparseable stored amount ${input.amount}`);
  try {
    const { requestId } = await deps.service.createFundRequest({
      amount: koboToServiceAmount(kobo, deps.amountUnit),
      tag: input.tag,
      description: input.description,
      meta: { ...input.meta, notificationUrl: deps.webhookUrl, transactionReference: reference },
    });
    let pending;
    try {
      pending = (await markPending(db, row.id, requestId, staff.name)) ?? row;
    } catch (error) {
      // The unique service id is already ours for another request: record it honestly instead of "our side".
      console.error(`[requests] service request id ${requestId} is already recorded: ${safeErrorSummary(error)}`);
      const failed =
        (await markFailed(
          db,
          row.id,
          `The service answered with request id ${requestId}, which is already recorded for another request. Check the service before sending again.`,
        )) ?? row;
      return {
        kind: "service_failed",
        request: toRequestView(failed, staff.name),
        error: new ServiceError({ kind: "bad_response", operation: "create", detail: "duplicate request id", outcomeUnknown: true }),
      };
    }
    return { kind: "created", request: toRequestView(pending, staff.name) };
  } catch (error) {
    if (!(error instanceof ServiceError)) {
      await markFailed(db, row.id, "The request could not be sent because of an error on our side.");
      throw error;
    }
    if (error.budgetRefused) {
      // Nothing reached the service: forget the row so the same key can be sent once there is room,
      // and let the caller say "try again in N s" (the guard answers 503 with Retry-After).
      await deleteSending(db, row.id);
      throw error;
    }
    const failed = (await markFailed(db, row.id, error.userMessage, error.kind)) ?? row;
    return { kind: "service_failed", request: toRequestView(failed, staff.name), error };
  }
}

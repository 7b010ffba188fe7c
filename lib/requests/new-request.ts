import "server-only";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { NewRequest } from "@/lib/client/requests/schemas";
import { getConfig } from "@/lib/config";
import { doNotAskRefusal } from "@/lib/payers/do-not-ask";

import { createFundRequest, REPLAY_WAIT_MS, type CreateOutcome } from "./create";
import type { RequestDeps } from "./deps";

/** createFundRequest's outcomes, or: the tag asked not to be asked, and nothing was sent (`refusal` says who marked it). */
export type NewRequestOutcome = CreateOutcome | { kind: "do_not_ask"; refusal: string };

/**
 * One request from the form or POST /api/requests (docs/architecture.md "A fund request" and "Actors"): the actor
 * authorized for `requests.write`, the tag checked against do-not-ask, the request sent under the actor's person, and
 * an audit row for a request made or a send the service refused (a replay or a refused key writes none).
 */
export async function sendNewRequest(
  deps: RequestDeps,
  actor: Actor,
  input: Omit<NewRequest, "businessReference"> & { businessReference?: string },
  replayWaitMs = REPLAY_WAIT_MS,
): Promise<NewRequestOutcome> {
  authorize(actor, "requests.write");
  const person = requirePerson(actor);
  const refusal = await doNotAskRefusal(deps.db, input.tag, getConfig().timeZone);
  if (refusal) return { kind: "do_not_ask", refusal };
  const outcome = await createFundRequest(deps, input, person, replayWaitMs);
  const by = { actor: auditActorOf(actor), ip: auditIpOf(actor) };
  if (outcome.kind === "created") {
    await writeAudit(deps.db, {
      action: "request.created",
      ...by,
      target: outcome.request.requestId,
      detail: { tag: outcome.request.tag, amount: outcome.request.amount },
    });
  } else if (outcome.kind === "service_failed") {
    await writeAudit(deps.db, { action: "request.created", ...by, target: outcome.request.reference, detail: { failed: outcome.error.kind } });
  }
  return outcome;
}

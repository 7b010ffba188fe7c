import "server-only";

import { serviceAmountToNaira } from "@/lib/client/money";
import { ServiceError } from "@/lib/service/errors";
import type { FundRequest } from "@/lib/service/schemas";

import type { RequestDeps } from "./deps";
import { noteStatusReadFailed, noteStatusReadOk, STATUS_FRESH_MS, statusReadFailedLately } from "./fetch-gate";
import { campaignOfRequest, claimStatusCheck, createdByName, findRequestByReference, findRequestByServiceId } from "./repo";
import { applyServiceState } from "./status";
import { toRequestView, type FundRequestView } from "./view";

function parseTime(text: string): Date | null {
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t);
}

/** Stores what the service says about one of our requests and tells the browsers if it moved. */
export async function applyFetched(deps: RequestDeps, fetched: FundRequest): Promise<FundRequestView | null> {
  // A service that reissued an id (a restarted sandbox, say) must not overwrite another request of ours.
  const reference = fetched.meta.transactionReference;
  if (reference !== undefined) {
    const mine = await findRequestByServiceId(deps.db, fetched.request_id);
    if (mine && mine.reference !== reference) {
      console.warn(`[requests] service request ${fetched.request_id} carries reference ${reference}, not ours (${mine.reference}); ignored`);
      return null;
    }
  }
  const { row } = await applyServiceState(deps.db, fetched.request_id, {
    status: fetched.request_status,
    requestedBy: fetched.requested_by,
    requestedSentTo: fetched.requested_sent_to,
    serviceCreatedAt: parseTime(fetched.created_at),
    serviceUpdatedAt: parseTime(fetched.updated_at),
  });
  if (!row) return null;
  return toRequestView(row, await createdByName(deps.db, row.createdBy));
}

/** A request the dashboard did not send, shown from the service's own record. */
export function viewFromService(fetched: FundRequest, deps: Pick<RequestDeps, "amountUnit">): FundRequestView {
  return {
    requestId: fetched.request_id,
    reference: fetched.meta.transactionReference ?? null,
    tag: fetched.requested_sent_to.tag,
    amount: serviceAmountToNaira(fetched.amount, deps.amountUnit),
    description: fetched.description,
    businessReference: null,
    status: fetched.request_status,
    requestedBy: fetched.requested_by,
    requestedSentTo: fetched.requested_sent_to,
    createdBy: null,
    createdAt: parseTime(fetched.created_at)?.toISOString() ?? fetched.created_at,
    updatedAt: parseTime(fetched.updated_at)?.toISOString() ?? fetched.updated_at,
    paymentUuid: null,
    error: null,
    local: false,
    decidedAt: fetched.request_status === "pending" ? null : (parseTime(fetched.updated_at)?.toISOString() ?? null),
  };
}

export type DetailOutcome = { kind: "found"; request: FundRequestView; stale: string | null } | { kind: "not_found" };

/**
 * One request by the service's id (or our `fb_` reference): the local record refreshed from the
 * service, or the service's record when the dashboard did not send it. When the service cannot be
 * asked, the local record is returned with `stale` saying why.
 */
export async function getRequestDetail(deps: RequestDeps, id: string): Promise<DetailOutcome> {
  const outcome = await detailOf(deps, id);
  // A request a campaign made links back to it.
  if (outcome.kind === "found" && outcome.request.local && outcome.request.reference)
    return { ...outcome, request: { ...outcome.request, campaign: await campaignOfRequest(deps.db, outcome.request.reference) } };
  return outcome;
}

async function detailOf(deps: RequestDeps, id: string): Promise<DetailOutcome> {
  const local = id.startsWith("fb_") ? await findRequestByReference(deps.db, id) : await findRequestByServiceId(deps.db, id);
  const serviceId = local ? local.requestId : id;
  if (local && (!serviceId || local.status !== "pending")) {
    // Final, failed or never sent: the service has nothing newer to say.
    return { kind: "found", request: toRequestView(local, await createdByName(deps.db, local.createdBy)), stale: null };
  }
  if (!serviceId) return { kind: "not_found" };
  if (local && !statusReadFailedLately(serviceId) && !(await claimStatusCheck(deps.db, local.id, STATUS_FRESH_MS))) {
    // Checked within STATUS_FRESH_MS by someone (the reconciler checks young requests every 2 s): the row says it.
    // After a failed read the service is asked again, so the person learns it could not be asked and why.
    return { kind: "found", request: toRequestView(local, await createdByName(deps.db, local.createdBy)), stale: null };
  }
  const gate = deps.fetchGate;
  try {
    const { record: fetched, reused } = gate
      ? await gate.fetch(serviceId, () => deps.service.getFundRequest(serviceId))
      : { record: await deps.service.getFundRequest(serviceId), reused: false };
    noteStatusReadOk(serviceId);
    if (local && reused && fetched.request_status === local.status) {
      // Fetched moments ago for another viewer and nothing new in it: the row already says it.
      return { kind: "found", request: toRequestView(local, await createdByName(deps.db, local.createdBy)), stale: null };
    }
    if (local) {
      const view = await applyFetched(deps, fetched);
      if (view) return { kind: "found", request: view, stale: null };
    }
    return { kind: "found", request: viewFromService(fetched, deps), stale: null };
  } catch (error) {
    if (error instanceof ServiceError) noteStatusReadFailed(serviceId);
    // No room in the shared budget: our record stands as stored (the reconciler refreshes it); others wait.
    if (error instanceof ServiceError && error.budgetRefused && local) {
      return { kind: "found", request: toRequestView(local, await createdByName(deps.db, local.createdBy)), stale: null };
    }
    if (error instanceof ServiceError && error.kind === "not_found" && !local) return { kind: "not_found" };
    if (error instanceof ServiceError && error.kind === "rejected" && !local) return { kind: "not_found" };
    if (local && error instanceof ServiceError) {
      return { kind: "found", request: toRequestView(local, await createdByName(deps.db, local.createdBy)), stale: error.userMessage };
    }
    throw error;
  }
}

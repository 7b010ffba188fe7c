import type { Page } from "@/lib/client/http/page-param";
import type { LocalRequestStatus } from "@/lib/client/requests/constants";
import type { FundRequestRow } from "@/lib/db/schema";

/** The FundRequest of docs/architecture.md: camelCase, money as naira strings, times ISO 8601 UTC. */
export interface FundRequestView {
  requestId: string | null;
  reference: string | null;
  tag: string;
  amount: string;
  description: string;
  /** The business's own reference (invoice, member number); null when none was given. */
  businessReference: string | null;
  status: LocalRequestStatus;
  requestedBy: { name: string; tag: string } | null;
  requestedSentTo: { name: string; tag: string } | null;
  createdBy: { id: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
  paymentUuid: string | null;
  error: string | null;
  /** False for a request read from the service that the dashboard did not send. */
  local: boolean;
  /** Times the status was first seen final, for the timeline. */
  decidedAt: string | null;
  /** The campaign whose row made this request (on a request's own page; absent in lists). */
  /** The campaign that made it; `startedBy` on the detail only (the lists leave it out). */
  campaign?: { id: string; name: string; startedBy?: string | null } | null;
}

/** How many requests and how much they ask for (naira, an exact decimal string). */
export interface RequestSum {
  count: number;
  amount: string;
}

/** The totals of a requests filter: the whole set, and each status of it. */
export interface RequestTotals extends RequestSum {
  byStatus: Record<FundRequestView["status"], RequestSum>;
}

/** One page of the requests list with the totals of the whole filter (GET /api/requests). */
export interface RequestPage extends Page<FundRequestView> {
  totals: RequestTotals;
}

export function toRequestView(row: FundRequestRow, createdByName?: string | null): FundRequestView {
  return {
    requestId: row.requestId,
    reference: row.reference,
    tag: row.tag,
    amount: row.amount,
    description: row.description,
    businessReference: row.businessReference,
    status: row.status,
    requestedBy: row.requestedBy ?? null,
    requestedSentTo: row.requestedSentTo ?? null,
    createdBy: row.createdBy ? { id: row.createdBy, name: createdByName ?? "" } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    paymentUuid: row.paymentUuid,
    error: row.error,
    local: true,
    decidedAt: row.status === "accepted" || row.status === "declined" ? (row.decidedAt ?? row.serviceUpdatedAt ?? row.updatedAt).toISOString() : null,
  };
}

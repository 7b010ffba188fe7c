import type { Role } from "@/lib/client/auth/roles";
import type { Page } from "@/lib/client/http/page-param";
import type { PaymentRow } from "@/lib/db/schema";

/** The Payment of docs/architecture.md. */
export interface PaymentView {
  uuid: string;
  type: string;
  amount: string;
  actualAmount: string;
  settledAmount: string;
  fees: string;
  description: string;
  customer: { name: string; tag: string; email: string | null; phone: string | null; avatar: string | null };
  verification: "unverified" | "verified" | "failed";
  verificationError: string | null;
  verifiedAt: string | null;
  requestId: string | null;
  /** The business's own reference of the linked request (invoice, member number); null when none. */
  businessReference: string | null;
  linkNote: string | null;
  /** False while a link made at once waits for the service's word (shown as "waiting to confirm with the service"). */
  linkConfirmed: boolean;
  receivedAt: string;
  /** A lost notice's payment recorded by a person: shown "recorded by hand, not verified" everywhere; else null. */
  recordedByHand: { by: string | null; reference: string | null } | null;
}

/** The totals of a whole payments filter (every page). */
export interface PaymentTotals {
  count: number;
  amount: string;
  fees: string;
  settled: string;
}

/** GET /api/payments: one page of payments and the totals of the whole filter. */
export interface PaymentPage extends Page<PaymentView> {
  totals: PaymentTotals;
}

/** GET /api/payments/settled-per-day: the amount settled per UTC day, oldest first. */
export interface SettledDay {
  day: string;
  settled: string;
}

export function maskEmail(email: string | null): string | null {
  if (!email) return email;
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email[0]}•••${email.slice(at)}`;
}

export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  const digits = phone.replace(/\D/g, "");
  return digits.length <= 4 ? "••••" : `•••••••${digits.slice(-4)}`;
}

/** Viewers see e-mail and phone masked (docs/architecture.md). */
export function toPaymentView(row: PaymentRow, requestId: string | null, role: Role, businessReference: string | null = null): PaymentView {
  const masked = role === "viewer";
  return {
    uuid: row.uuid,
    type: row.type,
    amount: row.amount,
    actualAmount: row.actualAmount,
    settledAmount: row.settledAmount,
    fees: row.fees,
    description: row.description,
    customer: {
      name: row.customerName,
      tag: row.customerTag,
      email: masked ? maskEmail(row.customerEmail) : row.customerEmail,
      phone: masked ? maskPhone(row.customerPhone) : row.customerPhone,
      avatar: row.customerAvatar,
    },
    verification: row.verification,
    verificationError: row.verificationError,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    requestId,
    businessReference,
    linkNote: row.linkNote,
    linkConfirmed: row.linkConfirmedAt !== null,
    receivedAt: row.receivedAt.toISOString(),
    recordedByHand: row.source === "hand" ? { by: row.recordedByName, reference: row.handReference } : null,
  };
}

import type { CappedPage } from "@/lib/client/http/pager-links";

// What GET /api/exceptions answers (docs/architecture.md "Closing the books"), shared by the routes and the /exceptions page.

export const EXCEPTION_KINDS = [
  "unlinked_payment",
  "verification_failed",
  "amount_mismatch",
  "accepted_without_payment",
  "duplicate_payment",
  "pay_page_surge",
] as const;
export type ExceptionKind = (typeof EXCEPTION_KINDS)[number];

export const EXCEPTION_STATUSES = ["open", "resolved"] as const;
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];

/** What each kind is called on the page and in the CSV. */
export const KIND_LABELS: Record<ExceptionKind, string> = {
  unlinked_payment: "Payment not linked",
  verification_failed: "Verification failed",
  amount_mismatch: "Amounts disagree",
  accepted_without_payment: "Accepted, no payment",
  duplicate_payment: "Second payment",
  pay_page_surge: "Pay page surge",
};

export interface ExceptionView {
  id: string;
  kind: ExceptionKind;
  status: ExceptionStatus;
  openedAt: string;
  /** The payment it is about (every kind but accepted_without_payment). */
  paymentUuid: string | null;
  /** The service's request id it is about, or that a person linked the payment to; null when none. */
  requestId: string | null;
  tag: string | null;
  /** A decimal naira string. */
  amount: string | null;
  /** Why it was opened, in words a person can act on. */
  detail: string;
  /** The person who resolved it; null while open, and when it closed by itself (its cause cleared). */
  resolvedBy: string | null;
  resolvedAt: string | null;
  /** The person's note, or what cleared it when it closed by itself. */
  note: string | null;
}

/**
 * A page of exceptions; `open` counts every open exception, whatever the filter. The total stops at 1,000
 * (`totalCapped`: more match, shown "1,000+").
 */
/** `open`: every open exception, counted to the badge's cap (`openCapped`: more than that). */
export type ExceptionPage = CappedPage<ExceptionView> & { open: number; openCapped: boolean };

/** A request an unlinked payment could be linked to, best first: same tag and amount, then same tag. */
export interface LinkSuggestion {
  requestId: string;
  tag: string;
  amount: string;
  status: "pending" | "accepted";
  createdAt: string;
  sameAmount: boolean;
}

export interface ExceptionListQuery {
  status: ExceptionStatus;
  kind?: ExceptionKind;
  /** Opened on this day (YYYY-MM-DD in TIMEZONE): where the day book's unexplained amount points. */
  day?: string;
  page: number;
}

/** A real calendar day between 2000 and 2100, or undefined: the only days the inbox filters by. */
function dayOrUndefined(text: string | undefined): string | undefined {
  if (!text || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const year = Number(text.slice(0, 4));
  if (year < 2000 || year > 2100) return undefined;
  const t = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === text ? text : undefined;
}

const one = (v: string | string[] | null | undefined): string | undefined => (Array.isArray(v) ? v[0] : (v ?? undefined));

/** Reads an exceptions list query from URL parameters; anything unusable reads as its default (open, every kind, page 1). */
export function exceptionListFromSearch(get: (name: string) => string | string[] | null | undefined): ExceptionListQuery {
  const status = one(get("status"));
  const kind = one(get("kind"));
  const page = Number(one(get("page")) ?? "1");
  return {
    status: status === "resolved" ? "resolved" : "open",
    kind: (EXCEPTION_KINDS as readonly string[]).includes(kind ?? "") ? (kind as ExceptionKind) : undefined,
    day: dayOrUndefined(one(get("day"))),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string of an exceptions list (the page's URL, GET /api/exceptions): each part left out at its default. */
export function exceptionListSearch(p: ExceptionListQuery): string {
  const s = new URLSearchParams();
  if (p.status !== "open") s.set("status", p.status);
  if (p.kind) s.set("kind", p.kind);
  if (p.day) s.set("day", p.day);
  if (p.page > 1) s.set("page", String(p.page));
  const text = s.toString();
  return text ? `?${text}` : "";
}

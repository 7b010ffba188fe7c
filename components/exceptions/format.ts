import type { BadgeTone } from "@/components/ui/badge";
import { exceptionListSearch, type ExceptionKind, type ExceptionListQuery } from "@/lib/client/exceptions/view";

// The inbox's shared words and links: one place, so the tabs, the filter, the pager and the cards agree.

/** The inbox's URL for a query (status, kind and page, each left out at its default). */
export function exceptionsHref(query: ExceptionListQuery): string {
  return `/exceptions${exceptionListSearch(query)}`;
}

/** A kind's badge tone: money that may be lost or doubled is red, the rest amber. The label says the same. */
export const KIND_TONES: Record<ExceptionKind, BadgeTone> = {
  unlinked_payment: "warning",
  verification_failed: "danger",
  amount_mismatch: "danger",
  accepted_without_payment: "danger",
  duplicate_payment: "warning",
  pay_page_surge: "warning",
};

/** The badge's text: "99+" past the count's cap (lib/exceptions/queries.ts), else the count. */
export function openCountText(count: { open: number; capped: boolean }): string {
  return count.capped ? `${count.open}+` : count.open.toLocaleString("en");
}

import type { BadgeTone } from "@/components/ui/badge";
import { formatMajor } from "@/lib/client/money";
import type { PayPageAmount } from "@/lib/client/pay-pages/schemas";
import type { PayPageState } from "@/lib/client/pay-pages/view";

// Client-safe words and addresses the pay pages' screen and poster share (docs/architecture.md "Pay pages").

export const STATE_WORDS: Record<PayPageState, { label: string; tone: BadgeTone; hint: string }> = {
  open: { label: "Open", tone: "success", hint: "Taking payments" },
  off: { label: "Off", tone: "neutral", hint: "Turned off: payers are told it is not taking payments" },
  expired: { label: "Expired", tone: "warning", hint: "Past its expiry" },
  full: { label: "Full", tone: "warning", hint: "Its most payments are reached" },
};

/** "NGN 5,000.00", or "NGN 1,000.00 – NGN 50,000.00" when the payer chooses. */
export function amountText(amount: PayPageAmount): string {
  return "fixed" in amount ? formatMajor("NGN", amount.fixed) : `${formatMajor("NGN", amount.min)} – ${formatMajor("NGN", amount.max)}`;
}

/** accepted ÷ submissions as a whole percent ("60%"); "—" before the first submission. */
export function conversionText(conversion: number | null): string {
  return conversion === null ? "—" : `${Math.round(conversion * 100)}%`;
}

export const publicPath = (slug: string) => `/pay/${slug}`;
export const qrSvgHref = (id: string) => `/api/pay-pages/${encodeURIComponent(id)}/qr.svg`;
export const qrPngHref = (id: string) => `/api/pay-pages/${encodeURIComponent(id)}/qr.png`;
export const posterHref = (id: string) => `/pay-pages/${encodeURIComponent(id)}/poster`;

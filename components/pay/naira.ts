// Naira as the payer reads it ("₦5,000.00"), zod-free so the pay form can use it (docs/architecture.md "Pay pages").
import { nairaText } from "@/lib/client/money";
import type { PayPageAmount } from "@/lib/client/pay-pages/schemas";

export { nairaText };

/** What a page asks: "₦5,000.00", or "₦1,000.00 to ₦50,000.00" for a page with bounds. */
export function amountAsked(amount: PayPageAmount): string {
  return "fixed" in amount ? nairaText(amount.fixed) : `${nairaText(amount.min)} to ${nairaText(amount.max)}`;
}

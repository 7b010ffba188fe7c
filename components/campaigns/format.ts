import { ROW_FILTERS, type CampaignCounts, type CampaignStatus, type RowFilter } from "@/lib/client/campaigns/view";
import { formatMajor } from "@/lib/client/money";

// Client-safe helpers shared by the campaign pages and their components.

export interface CampaignProgress {
  /** Rows the campaign is through with: sent (waiting for the person), accepted, declined, failed or skipped. */
  handled: number;
  /** Rows that can be sent: all but the invalid ones. */
  target: number;
  /** Whole percent, 0–100 (0 when there is nothing to send). */
  percent: number;
}

export function campaignProgress(counts: CampaignCounts): CampaignProgress {
  const handled = counts.sent + counts.accepted + counts.declined + counts.failed + counts.skipped;
  const target = Math.max(0, counts.total - counts.invalid);
  const percent = target === 0 ? 0 : Math.min(100, Math.floor((handled * 100) / target));
  return { handled, target, percent };
}

/** "about 12 minutes at the budget's pace", from the view's etaSeconds. */
export function timeLeftText(etaSeconds: number | null, status: CampaignStatus): string {
  if (etaSeconds === null || etaSeconds <= 0) return "Nothing left to send";
  const pace = status === "paused" ? "at the budget's pace once resumed" : "at the budget's pace";
  if (etaSeconds < 60) return `less than a minute ${pace}`;
  const minutes = Math.ceil(etaSeconds / 60);
  return `about ${minutes.toLocaleString("en")} minute${minutes === 1 ? "" : "s"} ${pace}`;
}

const PLAIN_AMOUNT = /^\d+(\.\d+)?$/;

/** A valid row's amount in the dashboard's money format; an invalid row's as written in the file. */
export function formatRowAmount(amount: string): string {
  return PLAIN_AMOUNT.test(amount) ? formatMajor("NGN", amount) : amount.trim() || "—";
}

export function formatNaira(amount: string): string {
  return formatMajor("NGN", PLAIN_AMOUNT.test(amount) ? amount : "0");
}

/** The rows filter from a query string; anything else means all rows. */
export function rowFilterParam(value: string | string[] | null | undefined): RowFilter | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return (ROW_FILTERS as readonly string[]).includes(text ?? "") ? (text as RowFilter) : undefined;
}

/** The query string of a campaign's rows table: filter and page, each left out at its default (the page's URL and the API's). */
export { campaignRowsSearch } from "@/lib/client/query/options";

export function campaignHref(id: string): string {
  return `/campaigns/${encodeURIComponent(id)}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

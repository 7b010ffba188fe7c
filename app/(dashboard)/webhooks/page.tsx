import Link from "next/link";

import { DeliveryOutcome } from "@/components/webhooks/delivery-outcome";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ADMINS } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { formatTime } from "@/lib/format-time";
import { pageParam } from "@/lib/http/page-param";
import { getConfig } from "@/lib/config";
import { DELIVERY_COUNT_CAP, DELIVERY_MAX_PAGE, DELIVERY_PAGE_SIZE, listDeliveries } from "@/lib/webhooks/log-queries";
import { ROWS_PER_SOURCE_HOUR } from "@/lib/webhooks/rejection-log";

export const metadata = { title: "Delivery log" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const SHOWS_PAYMENT = new Set(["recorded", "duplicate"]);

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff(ADMINS, "/webhooks");
  // The page and the count are capped (DESIGN §5.10): this page costs the same however long the log.
  const { items, page, total, totalCapped } = await listDeliveries(await getDb(), pageParam((await searchParams).page));
  const pages = Math.min(DELIVERY_MAX_PAGE, Math.max(1, Math.ceil(total / DELIVERY_PAGE_SIZE)));
  const rows = totalCapped ? `${DELIVERY_COUNT_CAP.toLocaleString("en")}+ rows` : `${total.toLocaleString("en")} row${total === 1 ? "" : "s"}`;
  const pageHref = (n: number) => (n > 1 ? `/webhooks?page=${n}` : "/webhooks");

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Delivery log</h1>
      <p className="text-sm text-slate-700">
        Every call made to this dashboard&apos;s webhook, newest first, kept for {getConfig().deliveryLogDays} days. Bodies are stored with the
        customer&apos;s BVN removed; deliveries refused for a bad signature or size are stored without a body, and past {ROWS_PER_SOURCE_HOUR} an hour from one
        address they are counted on one row (×N).
      </p>
      {/* Focusable so keyboard users can scroll it sideways on a narrow screen. */}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Delivery log table">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Webhook deliveries, newest first</caption>
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Received</th>
              <th scope="col" className="px-3 py-2 font-medium">Outcome</th>
              <th scope="col" className="px-3 py-2 font-medium">Count</th>
              <th scope="col" className="px-3 py-2 font-medium">HTTP status</th>
              <th scope="col" className="px-3 py-2 font-medium">Event type</th>
              <th scope="col" className="px-3 py-2 font-medium">Transaction uuid</th>
              <th scope="col" className="px-3 py-2 font-medium">From</th>
              <th scope="col" className="px-3 py-2 font-medium">Detail</th>
              <th scope="col" className="px-3 py-2 font-medium">Body</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.length === 0 ? (
              <tr>
                <td colSpan={9} className="px-3 py-6 text-center text-slate-600">
                  No deliveries yet. They appear here when the service calls the webhook.
                </td>
              </tr>
            ) : (
              items.map((d) => (
                <tr key={d.id} data-testid="delivery-row" data-outcome={d.outcome} className="align-top">
                  <td className="px-3 py-2 whitespace-nowrap text-slate-700">{formatTime(d.receivedAt)}</td>
                  <td className="px-3 py-2">
                    <DeliveryOutcome outcome={d.outcome} />
                  </td>
                  <td className="px-3 py-2 tabular-nums whitespace-nowrap" data-testid="delivery-count">
                    {d.count > 1 ? `×${d.count.toLocaleString("en")}` : "1"}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{d.httpStatus}</td>
                  <td className="px-3 py-2 font-mono text-xs">{d.eventType ?? "—"}</td>
                  <td className="px-3 py-2 font-mono text-xs break-all">
                    {d.uuid && SHOWS_PAYMENT.has(d.outcome) ? (
                      <Link href={`/payments/${encodeURIComponent(d.uuid)}`} className="text-brand-700 underline">
                        {d.uuid}
                      </Link>
                    ) : (
                      (d.uuid ?? "—")
                    )}
                  </td>
                  <td className="px-3 py-2 break-all">{d.remoteAddr ?? "—"}</td>
                  <td className="max-w-xs px-3 py-2 break-words">{d.detail ?? "—"}</td>
                  <td className="px-3 py-2">
                    {d.body ? (
                      <details>
                        <summary className="cursor-pointer text-brand-700">Show body</summary>
                        <pre tabIndex={0} className="mt-2 max-h-64 max-w-md overflow-auto rounded bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap">{d.body}</pre>
                      </details>
                    ) : (
                      "—"
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
        {page > 1 ? (
          <Link href={pageHref(page - 1)} className="underline">
            Newer
          </Link>
        ) : null}
        <span>
          Page {page} of {pages} · {rows}
        </span>
        {page < pages ? (
          <Link href={pageHref(page + 1)} className="underline">
            Older
          </Link>
        ) : null}
        {totalCapped ? (
          <span className="text-slate-600">Only the newest {DELIVERY_COUNT_CAP.toLocaleString("en")} rows are paged ({DELIVERY_MAX_PAGE} pages); older ones stay until they expire.</span>
        ) : null}
      </nav>
    </div>
  );
}

import { LocalTime } from "@/components/ui/local-time";
import { plainAddress } from "@/lib/http/address";
import { Pager } from "@/components/ui/pager";
import { DataTable, Td } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { DeliveryOutcome } from "@/components/webhooks/delivery-outcome";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ADMINS } from "@/lib/client/auth/roles";
import { getDb } from "@/lib/db";
import { pageParam } from "@/lib/client/http/page-param";
import { getConfig } from "@/lib/config";
import { DELIVERY_COUNT_CAP, DELIVERY_MAX_PAGE, DELIVERY_PAGE_SIZE, listDeliveries } from "@/lib/webhooks/log-queries";
import { ROWS_PER_SOURCE_HOUR } from "@/lib/webhooks/rejection-log";

export const metadata = { title: "Delivery log" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const SHOWS_PAYMENT = new Set(["recorded", "duplicate"]);

const COLUMNS = ["Received", "Outcome", "Count", "HTTP status", "Event type", "Transaction uuid", "From", "Detail", "Body"];

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff(ADMINS, "/webhooks");
  // The page and the count are capped (docs/architecture.md): this page costs the same however long the log.
  const { items, page, total, totalCapped } = await listDeliveries(await getDb(), pageParam((await searchParams).page));
  const pages = Math.min(DELIVERY_MAX_PAGE, Math.max(1, Math.ceil(total / DELIVERY_PAGE_SIZE)));
  const rows = totalCapped ? `${DELIVERY_COUNT_CAP.toLocaleString("en")}+ rows` : `${total.toLocaleString("en")} row${total === 1 ? "" : "s"}`;
  const pageHref = (n: number) => (n > 1 ? `/webhooks?page=${n}` : "/webhooks");

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Delivery log</h1>
      <p className="text-sm text-slate-700">
        Every call made to this dashboard&apos;s webhook, newest first, kept for {getConfig().deliveryLogDays} days. Bodies are stored with the customer&apos;s
        BVN removed; deliveries refused for a bad signature or size are stored without a body, and past {ROWS_PER_SOURCE_HOUR} an hour from one address they are
        counted on one row (×N).
      </p>
      <DataTable
        label="Delivery log table"
        caption="Webhook deliveries, newest first"
        columns={COLUMNS}
        empty={items.length === 0 ? "No deliveries yet. They appear here when the service calls the webhook." : null}
      >
        {items.map((d) => (
          <tr key={d.id} data-testid="delivery-row" data-outcome={d.outcome} className="align-top">
            <Td className="whitespace-nowrap text-slate-700">
              <LocalTime iso={d.receivedAt} />
            </Td>
            <Td>
              <DeliveryOutcome outcome={d.outcome} />
            </Td>
            <Td className="tabular-nums whitespace-nowrap" data-testid="delivery-count">
              {d.count > 1 ? `×${d.count.toLocaleString("en")}` : "1"}
            </Td>
            <Td className="tabular-nums">{d.httpStatus}</Td>
            <Td className="font-mono text-xs">{d.eventType ?? "—"}</Td>
            <Td className="font-mono text-xs break-all">
              {d.uuid && SHOWS_PAYMENT.has(d.outcome) ? <TextLink href={`/payments/${encodeURIComponent(d.uuid)}`}>{d.uuid}</TextLink> : (d.uuid ?? "—")}
            </Td>
            <Td className="break-all">{d.remoteAddr ? plainAddress(d.remoteAddr) : "—"}</Td>
            <Td className="max-w-xs break-words">{d.detail ?? "—"}</Td>
            <Td>
              {d.body ? (
                <details>
                  <summary className="cursor-pointer text-brand-700">Show body</summary>
                  <pre tabIndex={0} className="mt-2 max-h-64 max-w-md overflow-auto rounded bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap">
                    {d.body}
                  </pre>
                </details>
              ) : (
                "—"
              )}
            </Td>
          </tr>
        ))}
      </DataTable>
      <Pager
        newerHref={page > 1 ? pageHref(page - 1) : null}
        olderHref={page < pages ? pageHref(page + 1) : null}
        note={
          totalCapped ? (
            <span className="text-slate-600">
              Only the newest {DELIVERY_COUNT_CAP.toLocaleString("en")} rows are paged ({DELIVERY_MAX_PAGE} pages); older ones stay until they expire.
            </span>
          ) : null
        }
      >
        Page {page} of {pages} · {rows}
      </Pager>
    </div>
  );
}

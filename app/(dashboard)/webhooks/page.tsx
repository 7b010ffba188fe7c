import Link from "next/link";
import { Button } from "@/components/ui/button";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { OneLine } from "@/components/ui/one-line";
import { Pager } from "@/components/ui/pager";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { DeliveryDetails, DeliveryPayment } from "@/components/webhooks/delivery-body";
import { DeliveryOutcome } from "@/components/webhooks/delivery-outcome";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { pageParam } from "@/lib/client/http/page-param";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { plainAddress } from "@/lib/http/address";
import {
  DELIVERY_COUNT_CAP,
  DELIVERY_FILTERS,
  DELIVERY_MAX_PAGE,
  DELIVERY_PAGE_SIZE,
  deliveryFilterParam,
  listDeliveries,
  type DeliveryFilter,
} from "@/lib/webhooks/log-queries";
import { ROWS_PER_SOURCE_HOUR } from "@/lib/webhooks/rejection-log";

export const metadata = { title: "Delivery log" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const SHOWS_PAYMENT = new Set(["recorded", "duplicate"]);

const COLUMNS: Column[] = ["Received", { label: "Outcome", lead: true }, { label: "Payment", lead: true }, "From", "Message"];

const FILTERS = Object.entries(DELIVERY_FILTERS) as [DeliveryFilter, (typeof DELIVERY_FILTERS)[DeliveryFilter]][];

export default async function WebhooksPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff("deliveries.read", "/webhooks");
  const search = await searchParams;
  const filter = deliveryFilterParam(search.outcome);
  // The page and the count are capped (docs/architecture.md): this page costs the same however long the log.
  const { items, page, total, totalCapped } = await listDeliveries(await getDb(), pageParam(search.page), filter);
  const config = getConfig();
  const pages = Math.min(DELIVERY_MAX_PAGE, Math.max(1, Math.ceil(total / DELIVERY_PAGE_SIZE)));
  const rows = totalCapped ? `${DELIVERY_COUNT_CAP.toLocaleString("en")}+ rows` : `${total.toLocaleString("en")} row${total === 1 ? "" : "s"}`;
  const pageHref = (n: number) => {
    const q = new URLSearchParams();
    if (filter) q.set("outcome", filter);
    if (n > 1) q.set("page", String(n));
    return q.size ? `/webhooks?${q.toString()}` : "/webhooks";
  };

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Delivery log</h1>
      <p className="text-sm text-slate-700">
        Every message the payment service sent to this dashboard, newest first, kept for {config.deliveryLogDays} days. A payment shows up here first, then on
        the payments page. Messages are kept without the customer&apos;s BVN; refused ones are kept without their content, and past {ROWS_PER_SOURCE_HOUR} an
        hour from one address they are counted on one row (×N).
      </p>
      <p className="text-sm text-slate-700">
        What this dashboard sends to your own systems is on{" "}
        <Link href="/developers/webhooks" className="underline">
          Outgoing webhooks
        </Link>
        .
      </p>
      {/* Keyed by the filter: a link to another filter (the banner's) re-renders this page in place, and an uncontrolled select keeps its old value. */}
      <form key={filter ?? "all"} method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the delivery log">
        <LabelledControl id="outcome" label="Outcome">
          <select id="outcome" name="outcome" defaultValue={filter ?? ""} className={inputClass}>
            <option value="">All outcomes</option>
            {FILTERS.map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </LabelledControl>
        <Button type="submit">Filter</Button>
      </form>
      <DataTable
        label="Delivery log table"
        caption="Webhook deliveries, newest first"
        columns={COLUMNS}
        empty={
          items.length === 0
            ? filter
              ? "No deliveries with this outcome."
              : "No deliveries yet. They appear here when the payment service sends a payment."
            : null
        }
      >
        {items.map((d) => (
          <tr key={d.id} data-testid="delivery-row" data-outcome={d.outcome} className="align-top">
            <Td className="whitespace-nowrap text-slate-700">
              <LocalTime iso={d.receivedAt} />
            </Td>
            <Td>
              <DeliveryOutcome outcome={d.outcome} explain />
              {d.count > 1 ? (
                <span className="mt-1 block text-xs text-slate-700 tabular-nums" data-testid="delivery-count">
                  ×{d.count.toLocaleString("en")} from this address this hour
                </span>
              ) : null}
            </Td>
            <Td className="max-w-xs">
              <DeliveryPayment body={d.body} unit={config.service.amountUnit} />
              {d.uuid && SHOWS_PAYMENT.has(d.outcome) ? (
                <TextLink href={`/payments/${encodeURIComponent(d.uuid)}`} hoverUnderline className="block text-xs">
                  Open the payment
                </TextLink>
              ) : null}
            </Td>
            <Td>{d.remoteAddr ? <OneLine text={plainAddress(d.remoteAddr)} className="font-mono text-xs" /> : "—"}</Td>
            <Td className="min-w-[12rem]">
              <DeliveryDetails body={d.body} httpStatus={d.httpStatus} eventType={d.eventType} uuid={d.uuid} detail={d.detail} />
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

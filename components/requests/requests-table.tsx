import { PayerTag } from "@/components/payers/payer-tag";
import { OneLine } from "@/components/ui/one-line";
import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor } from "@/lib/client/money";
import type { FundRequestView } from "@/lib/requests/view";

import { StatusBadge } from "./status-badge";

export function requestHref(r: Pick<FundRequestView, "requestId" | "reference">): string {
  return `/requests/${encodeURIComponent(r.requestId ?? r.reference ?? "")}`;
}

const COLUMNS: Column[] = ["To", { label: "Amount", align: "right", lead: true }, { label: "Status", lead: true }, "Description", "Sent by", "Created"];

export function RequestsTable({ items, empty, currency = "NGN" }: { items: FundRequestView[]; empty: string; currency?: string }) {
  return (
    <DataTable label="Fund requests" caption="Fund requests, newest first" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((r) => (
        <tr key={r.reference ?? r.requestId} data-testid="request-row" data-request-id={r.requestId ?? ""}>
          <Td>
            <PayerTag tag={r.tag} className="font-medium" />
            {r.requestedSentTo?.name ? <div className="text-xs text-slate-600">{r.requestedSentTo.name}</div> : null}
          </Td>
          {/* The amount opens the request; the tag opens the person (their payer page). */}
          <Td className="text-right whitespace-nowrap tabular-nums">
            <TextLink
              href={requestHref(r)}
              hoverUnderline
              className="inline-block leading-6 font-medium"
              aria-label={`Request to @${r.tag} for ${formatMajor(currency, r.amount)}`}
            >
              {formatMajor(currency, r.amount)}
            </TextLink>
          </Td>
          <Td>
            <StatusBadge status={r.status} />
          </Td>
          <Td>
            <OneLine text={r.description ?? "—"} className="max-w-xs" />
          </Td>
          <Td>{r.createdBy?.name ?? "—"}</Td>
          <Td className="whitespace-nowrap text-slate-700">
            <LocalTime iso={r.createdAt} />
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

import { PayerTag } from "@/components/payers/payer-tag";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import type { CampaignRowView } from "@/lib/client/campaigns/view";
import { PAYER_TAG_RE } from "@/lib/client/payers/tag";

import { formatRowAmount } from "./format";
import { RowStatusBadge } from "./status-badge";

/** A tag as the person's handle: "@ada.obi"; one written with its "@" (an invalid row's, kept as written) is not doubled. */
function handle(tag: string): string {
  return tag === "" ? "—" : tag.startsWith("@") ? tag : `@${tag}`;
}

const COLUMNS: Column[] = [
  "Line",
  "Tag",
  "Reference",
  { label: "Amount", align: "right", lead: true },
  "Description",
  { label: "Status", lead: true },
  "Request",
  "Error or warning",
];

/** A campaign's rows in file order: what was asked of whom, and what became of it. */
export function CampaignRowsTable({ items, empty }: { items: CampaignRowView[]; empty: string }) {
  return (
    <DataTable label="Campaign rows" caption="The rows of the campaign's file, in file order" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((r) => (
        <tr key={r.row} data-testid="campaign-row-line" data-row={r.row} data-status={r.status} className="align-top">
          <Td className="tabular-nums">{r.line}</Td>
          <Td className="font-medium">{r.status === "invalid" && r.leftOut === null ? <OneLine text={handle(r.tag)} /> : <PayerTag tag={r.tag} />}</Td>
          <Td className="break-words">{r.businessReference ?? "—"}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatRowAmount(r.amount)}</Td>
          <Td className="max-w-xs break-words">{r.description || "—"}</Td>
          <Td>
            <RowStatusBadge status={r.status} />
          </Td>
          <Td className="whitespace-nowrap">
            {r.requestId ? (
              <TextLink href={`/requests/${encodeURIComponent(r.requestId)}`} hoverUnderline>
                #{r.requestId}
              </TextLink>
            ) : (
              "—"
            )}
          </Td>
          <Td className="max-w-sm break-words">
            {r.error ? <p className="text-red-800">{r.error}</p> : null}
            {r.warning ? <p className="text-amber-900">{r.warning}</p> : null}
            {!r.error && !r.warning ? "—" : null}
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The draft preview's short tables: the rows with a problem and what it is. */
export function ProblemRowsTable({ label, caption, items, kind }: { label: string; caption: string; items: CampaignRowView[]; kind: "error" | "warning" }) {
  const columns: Column[] = ["Line", "Tag", { label: "Amount", align: "right", lead: true }, kind === "error" ? "Why it will not be sent" : "Warning"];
  return (
    <DataTable label={label} caption={caption} columns={columns}>
      {items.map((r) => (
        <tr key={r.row} data-testid={kind === "error" ? "invalid-row" : "warning-row"} data-row={r.row} className="align-top">
          <Td className="tabular-nums">{r.line}</Td>
          {/* A tag that is one links to its payer; one the upload refused as a tag stays as written. */}
          <Td>{PAYER_TAG_RE.test(r.tag.trim()) ? <PayerTag tag={r.tag} /> : <OneLine text={handle(r.tag)} />}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatRowAmount(r.amount)}</Td>
          <Td className="max-w-md break-words">{(kind === "error" ? r.error : r.warning) ?? "—"}</Td>
        </tr>
      ))}
    </DataTable>
  );
}

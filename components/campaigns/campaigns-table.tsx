import { LocalTime } from "@/components/ui/local-time";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { isDiscarded, type CampaignView } from "@/lib/client/campaigns/view";

import { campaignHref, formatNaira } from "./format";
import { ProgressMini } from "./progress-bar";
import { CampaignStatusBadge } from "./status-badge";

const COLUMNS: Column[] = [
  "Name",
  { label: "Status", lead: true },
  "Progress",
  { label: "Asked", align: "right" },
  { label: "Accepted", align: "right" },
  { label: "Collected after fees", align: "right", lead: true },
  { label: "Outstanding", align: "right" },
  "Created",
];

export function CampaignsTable({ items, empty }: { items: CampaignView[]; empty: string }) {
  return (
    <DataTable label="Campaigns" caption="Collection campaigns, newest first" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((c) => (
        <tr key={c.id} data-testid="campaign-row" data-campaign-id={c.id}>
          <Td className="max-w-xs">
            <TextLink href={campaignHref(c.id)} hoverUnderline className="font-medium break-words">
              {c.name}
            </TextLink>
            {c.createdBy ? <div className="text-xs text-slate-600">by {c.createdBy}</div> : null}
          </Td>
          <Td>
            <CampaignStatusBadge status={c.status} stillToAnswer={c.counts.sent} discarded={isDiscarded(c)} />
          </Td>
          <Td>
            <ProgressMini counts={c.counts} discarded={isDiscarded(c)} />
          </Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatNaira(c.amounts.asked)}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatNaira(c.amounts.accepted)}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatNaira(c.amounts.collected)}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{formatNaira(c.amounts.outstanding)}</Td>
          <Td className="whitespace-nowrap text-slate-700">
            <LocalTime iso={c.createdAt} />
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

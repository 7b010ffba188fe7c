import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CampaignStatus, RowStatus } from "@/lib/client/campaigns/view";

const CAMPAIGN_TONES: Record<CampaignStatus, BadgeTone> = {
  draft: "neutral",
  sending: "brand",
  paused: "warning",
  done: "success",
  cancelled: "danger",
};

export function CampaignStatusBadge({ status, testId = "campaign-status" }: { status: CampaignStatus; testId?: string }) {
  return (
    <Badge tone={CAMPAIGN_TONES[status]} data-testid={testId} data-status={status}>
      {status}
    </Badge>
  );
}

const ROW_TONES: Record<RowStatus, BadgeTone> = {
  invalid: "danger",
  queued: "neutral",
  sent: "warning",
  accepted: "success",
  declined: "danger",
  failed: "critical",
  skipped: "neutral",
};

export function RowStatusBadge({ status }: { status: RowStatus }) {
  return (
    <Badge tone={ROW_TONES[status]} data-testid="row-status" data-status={status}>
      {status}
    </Badge>
  );
}

import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CampaignStatus, RowStatus } from "@/lib/client/campaigns/view";

const CAMPAIGN_TONES: Record<CampaignStatus, BadgeTone> = {
  draft: "neutral",
  sending: "brand",
  paused: "warning",
  done: "success",
  cancelled: "danger",
};

/** A campaign's state in words: a finished one with people still to answer says so, not a bare "done". */
export function campaignStatusText(status: CampaignStatus, stillToAnswer: number): string {
  if (status === "done" && stillToAnswer > 0) return `sent — ${stillToAnswer.toLocaleString("en")} still to answer`;
  return status;
}

export function CampaignStatusBadge({
  status,
  stillToAnswer = 0,
  testId = "campaign-status",
}: {
  status: CampaignStatus;
  stillToAnswer?: number;
  testId?: string;
}) {
  return (
    <Badge tone={status === "done" && stillToAnswer > 0 ? "warning" : CAMPAIGN_TONES[status]} data-testid={testId} data-status={status}>
      {campaignStatusText(status, stillToAnswer)}
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

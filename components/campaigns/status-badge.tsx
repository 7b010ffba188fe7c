import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CampaignStatus, RowStatus } from "@/lib/client/campaigns/view";

const CAMPAIGN_TONES: Record<CampaignStatus, BadgeTone> = {
  draft: "neutral",
  sending: "brand",
  paused: "warning",
  done: "success",
  cancelled: "danger",
};

/**
 * A campaign's state in words: a finished one with people still to answer says so, not a bare "done"; a draft
 * cancelled before it started was discarded, not cancelled mid-send.
 */
export function campaignStatusText(status: CampaignStatus, stillToAnswer: number, discarded = false): string {
  if (discarded) return "discarded";
  if (status === "done" && stillToAnswer > 0) return `sent — ${stillToAnswer.toLocaleString("en")} still to answer`;
  return status;
}

export function CampaignStatusBadge({
  status,
  stillToAnswer = 0,
  discarded = false,
  testId = "campaign-status",
}: {
  status: CampaignStatus;
  stillToAnswer?: number;
  discarded?: boolean;
  testId?: string;
}) {
  const tone = discarded ? "neutral" : status === "done" && stillToAnswer > 0 ? "warning" : CAMPAIGN_TONES[status];
  return (
    <Badge tone={tone} data-testid={testId} data-status={status}>
      {campaignStatusText(status, stillToAnswer, discarded)}
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
  unknown: "warning",
  skipped: "neutral",
};

export function RowStatusBadge({ status }: { status: RowStatus }) {
  return (
    <Badge tone={ROW_TONES[status]} data-testid="row-status" data-status={status}>
      {status}
    </Badge>
  );
}

import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { FundRequestView } from "@/lib/requests/view";

const TONES: Record<FundRequestView["status"], BadgeTone> = {
  sending: "neutral",
  pending: "warning",
  accepted: "success",
  declined: "danger",
  failed: "critical",
  unknown: "warning",
};

export function StatusBadge({ status }: { status: FundRequestView["status"] }) {
  return (
    <Badge tone={TONES[status]} data-testid="status-badge" data-status={status}>
      {status}
    </Badge>
  );
}

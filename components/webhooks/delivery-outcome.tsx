import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { WebhookDeliveryRow } from "@/lib/db/schema";

type Outcome = WebhookDeliveryRow["outcome"];

const LOOK: Record<Outcome, { label: string; tone: BadgeTone }> = {
  recorded: { label: "Recorded", tone: "success" },
  duplicate: { label: "Duplicate", tone: "neutral" },
  bad_signature: { label: "Bad signature", tone: "danger" },
  bad_payload: { label: "Bad payload", tone: "warning" },
  too_large: { label: "Too large", tone: "warning" },
  unknown_type: { label: "Unknown type", tone: "warning" },
  bad_content_type: { label: "Bad content type", tone: "warning" },
  error: { label: "Error", tone: "critical" },
};

export function DeliveryOutcome({ outcome }: { outcome: Outcome }) {
  const look = LOOK[outcome];
  return (
    <Badge tone={look.tone} data-testid="delivery-outcome" data-outcome={outcome}>
      {look.label}
    </Badge>
  );
}

import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { WebhookDeliveryRow } from "@/lib/db/schema";

// A delivery's outcome as the finance team reads it: what became of the message, and whether money is affected.

type Outcome = WebhookDeliveryRow["outcome"];

const LOOK: Record<Outcome, { label: string; tone: BadgeTone; meaning: string }> = {
  recorded: { label: "Payment recorded", tone: "success", meaning: "A payment came in and is on the payments page." },
  duplicate: { label: "Repeat", tone: "neutral", meaning: "The service sent a payment again; it was already recorded, so it counts once." },
  bad_signature: {
    label: "Refused: bad signature",
    tone: "danger",
    meaning: "Not signed with our webhook secret, so nothing was recorded. Either the secret changed or someone else sent it.",
  },
  bad_payload: { label: "Refused: unreadable", tone: "warning", meaning: "Signed, but not a payment message we can read; nothing was recorded." },
  too_large: { label: "Refused: too large", tone: "warning", meaning: "Far larger than any payment message; refused unread." },
  unknown_type: { label: "Ignored: not a payment", tone: "neutral", meaning: "A kind of message the dashboard does not act on; nothing to do." },
  bad_content_type: { label: "Refused: wrong format", tone: "warning", meaning: "Not sent as JSON, so it was not read; nothing was recorded." },
  error: { label: "Failed on our side", tone: "critical", meaning: "Fundboard could not save it; the service sends it again, so it is recorded then." },
};

export function outcomeLabel(outcome: Outcome): string {
  return LOOK[outcome].label;
}

export function DeliveryOutcome({ outcome, explain = false }: { outcome: Outcome; explain?: boolean }) {
  const look = LOOK[outcome];
  return (
    <>
      <Badge tone={look.tone} data-testid="delivery-outcome" data-outcome={outcome}>
        {look.label}
      </Badge>
      {explain ? <span className="mt-1 block max-w-xs text-xs text-slate-600">{look.meaning}</span> : null}
    </>
  );
}

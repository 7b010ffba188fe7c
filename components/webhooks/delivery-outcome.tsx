import type { WebhookDeliveryRow } from "@/lib/db/schema";

type Outcome = WebhookDeliveryRow["outcome"];

const LOOK: Record<Outcome, { label: string; className: string }> = {
  recorded: { label: "Recorded", className: "bg-green-50 text-green-900 ring-green-300" },
  duplicate: { label: "Duplicate", className: "bg-slate-100 text-slate-800 ring-slate-300" },
  bad_signature: { label: "Bad signature", className: "bg-red-50 text-red-900 ring-red-300" },
  bad_payload: { label: "Bad payload", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  too_large: { label: "Too large", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  unknown_type: { label: "Unknown type", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  bad_content_type: { label: "Bad content type", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  error: { label: "Error", className: "bg-red-100 text-red-900 ring-red-400" },
};

export function DeliveryOutcome({ outcome }: { outcome: Outcome }) {
  const look = LOOK[outcome];
  return (
    <span data-testid="delivery-outcome" data-outcome={outcome} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ${look.className}`}>
      {look.label}
    </span>
  );
}

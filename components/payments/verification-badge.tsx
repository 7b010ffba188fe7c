import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { PaymentView } from "@/lib/payments/view";

type State = PaymentView["verification"];

const LOOK: Record<State, { label: string; mark: string; tone: BadgeTone }> = {
  unverified: { label: "unverified", mark: "…", tone: "warning" },
  verified: { label: "verified", mark: "✓", tone: "success" },
  failed: { label: "verification failed", mark: "✕", tone: "danger" },
};

export function verificationLabel(state: State): string {
  return LOOK[state].label;
}

/** The word carries the state; the mark and colour only repeat it. */
export function VerificationBadge({ state, reason }: { state: State; reason?: string | null }) {
  const look = LOOK[state];
  return (
    <Badge tone={look.tone} data-testid="verification-badge" data-state={state} title={state === "failed" && reason ? reason : undefined}>
      <span aria-hidden="true">{look.mark}</span>
      {look.label}
    </Badge>
  );
}

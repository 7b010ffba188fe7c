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

const BY_HAND = { label: "recorded by hand, not verified", mark: "✎", tone: "warning" } as const;

/** The word carries the state; the mark and colour only repeat it. A hand record is never verified and says so. */
export function VerificationBadge({ state, reason, byHand = false }: { state: State; reason?: string | null; byHand?: boolean }) {
  const look = byHand ? BY_HAND : LOOK[state];
  return (
    <Badge
      tone={look.tone}
      data-testid="verification-badge"
      data-state={byHand ? "hand" : state}
      title={!byHand && state === "failed" && reason ? reason : undefined}
    >
      <span aria-hidden="true">{look.mark}</span>
      {look.label}
    </Badge>
  );
}

import type { PaymentView } from "@/lib/payments/view";

type State = PaymentView["verification"];

const LOOK: Record<State, { label: string; mark: string; className: string }> = {
  unverified: { label: "unverified", mark: "…", className: "bg-amber-50 text-amber-900 ring-amber-300" },
  verified: { label: "verified", mark: "✓", className: "bg-green-50 text-green-900 ring-green-300" },
  failed: { label: "verification failed", mark: "✕", className: "bg-red-50 text-red-900 ring-red-300" },
};

export function verificationLabel(state: State): string {
  return LOOK[state].label;
}

/** The word carries the state; the mark and colour only repeat it. */
export function VerificationBadge({ state, reason }: { state: State; reason?: string | null }) {
  const look = LOOK[state];
  return (
    <span
      data-testid="verification-badge"
      data-state={state}
      title={state === "failed" && reason ? reason : undefined}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ${look.className}`}
    >
      <span aria-hidden="true">{look.mark}</span>
      {look.label}
    </span>
  );
}

import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CellStatus, PlanStatus } from "@/lib/client/plans/view";

import { PLAN_STATUS_WORDS } from "./format";

const PLAN_TONES: Record<PlanStatus, BadgeTone> = { active: "success", paused: "warning", ended: "neutral" };

export function PlanStatusBadge({ status }: { status: PlanStatus }) {
  return (
    <Badge tone={PLAN_TONES[status]} data-testid="plan-status" data-status={status}>
      {PLAN_STATUS_WORDS[status]}
    </Badge>
  );
}

/** A board cell's colour: the word beside it says the same (never colour alone). */
export const CELL_CLASSES: Record<CellStatus, string> = {
  paid: "bg-green-50 text-green-900 ring-green-300",
  pending: "bg-amber-50 text-amber-900 ring-amber-300",
  declined: "bg-red-50 text-red-900 ring-red-300",
  failed: "bg-red-100 text-red-900 ring-red-400",
  skipped: "bg-slate-100 text-slate-800 ring-slate-300",
  not_asked: "bg-white text-slate-600 ring-slate-200",
};

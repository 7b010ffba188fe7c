import type { CampaignCounts } from "@/lib/client/campaigns/view";

import { campaignProgress } from "./format";

/** The list's small bar: the bar is decoration, the text beside it says the same. */
export function ProgressMini({ counts, discarded = false }: { counts: CampaignCounts; discarded?: boolean }) {
  const { handled, target, percent } = campaignProgress(counts);
  if (discarded) return <span className="text-xs whitespace-nowrap text-slate-600">nothing asked</span>;
  return (
    <div className="flex min-w-32 items-center gap-2">
      <div aria-hidden="true" className="h-2 w-16 shrink-0 overflow-hidden rounded-full bg-slate-200">
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-xs whitespace-nowrap text-slate-700 tabular-nums">
        {handled.toLocaleString("en")} of {target.toLocaleString("en")}
      </span>
    </div>
  );
}

/** A campaign's progress bar, named by its visible label and read out as "n of m rows (p%)". */
export function ProgressBar({ counts, id }: { counts: CampaignCounts; id: string }) {
  const { handled, target, percent } = campaignProgress(counts);
  const text = `${handled.toLocaleString("en")} of ${target.toLocaleString("en")} rows (${percent}%)`;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span id={`${id}-label`} className="font-medium text-slate-700">
          Rows handled
        </span>
        <span className="text-slate-700 tabular-nums" data-testid="campaign-progress-text">
          {text}
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={`${id}-label`}
        aria-valuemin={0}
        aria-valuemax={Math.max(1, target)}
        aria-valuenow={handled}
        aria-valuetext={text}
        data-testid="campaign-progress"
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

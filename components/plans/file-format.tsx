import { Card } from "@/components/ui/card";
import { DESCRIPTION_MAX } from "@/lib/client/requests/constants";

const EXAMPLE = `tag,amount,description
ada.obi,1500,
@tunde.bakare,"2,000.50",{period} dues and levy`;

/** What a plan's roster must look like: a campaign file (lib/campaigns/parse.ts checks it), the description optional. */
export function PlanFileFormat() {
  return (
    <Card as="section" aria-labelledby="plan-format-heading" className="max-w-xl space-y-3 p-4 text-sm text-slate-700">
      <h2 id="plan-format-heading" className="text-lg font-semibold text-slate-900">
        The roster
      </h2>
      <div id="plan-format" className="space-y-3">
        <p>
          A CSV file (UTF-8) whose first line names the columns <code className="font-mono">tag</code> and <code className="font-mono">amount</code>, and
          optionally <code className="font-mono">description</code>, in any order and any case, separated by commas or semicolons. At most 2 MiB.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <span className="font-medium">tag</span>: the member&apos;s consumer-app tag, with or without @. One row a person.
          </li>
          <li>
            <span className="font-medium">amount</span>: naira asked each period, up to two decimals, more than ₦0 and at most ₦10,000,000.
          </li>
          <li>
            <span className="font-medium">description</span>: the member&apos;s own, at most {DESCRIPTION_MAX} characters; empty for the plan&apos;s.
          </li>
        </ul>
        <p>A row that fails a check is kept as an invalid member, with the reason, and is never asked. Change members later from the plan&apos;s page.</p>
      </div>
      <pre tabIndex={0} role="region" aria-label="Example roster" className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-900">
        {EXAMPLE}
      </pre>
    </Card>
  );
}

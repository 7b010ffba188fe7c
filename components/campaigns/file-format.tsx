import { Card } from "@/components/ui/card";
import { MAX_CAMPAIGN_ROWS } from "@/lib/campaigns/parse";
import { DESCRIPTION_MAX } from "@/lib/client/requests/constants";

const COMMA_EXAMPLE = `tag,amount,description
ada.obi,1500,November dues
@tunde.bakare,"2,000.50","School fees, first term"`;

const SEMICOLON_EXAMPLE = `Description;Tag;Amount
November dues;chioma.eze;1500
School fees, first term;bola.ade;2000.50`;

/** What a campaign file must look like (lib/campaigns/parse.ts checks it on the server). */
export function CampaignFileFormat() {
  return (
    <Card as="section" aria-labelledby="campaign-format-heading" className="max-w-xl space-y-3 p-4 text-sm text-slate-700">
      <h2 id="campaign-format-heading" className="text-lg font-semibold text-slate-900">
        The file
      </h2>
      <div id="campaign-format" className="space-y-3">
        <p>
          A CSV file (UTF-8) whose first line names the columns <code className="font-mono">tag</code>, <code className="font-mono">amount</code> and{" "}
          <code className="font-mono">description</code>, in any order and any case. Columns are separated by commas or semicolons; other columns are ignored.
          At most {MAX_CAMPAIGN_ROWS.toLocaleString("en")} rows and 2 MiB.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <span className="font-medium">tag</span>: the person&apos;s consumer-app tag, with or without @.
          </li>
          <li>
            <span className="font-medium">amount</span>: naira, up to two decimals, more than ₦0 and at most ₦10,000,000. Put an amount with a thousands comma
            in quotes.
          </li>
          <li>
            <span className="font-medium">description</span>: shown to the person, at most {DESCRIPTION_MAX} characters.
          </li>
        </ul>
        <p>A row that fails a check is marked invalid, with the reason, and is never sent. A tag that appears twice gets a warning but is still sent.</p>
      </div>
      <p className="font-medium text-slate-900">Example, with commas:</p>
      <pre
        tabIndex={0}
        role="region"
        aria-label="Example file with commas"
        className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-900"
      >
        {COMMA_EXAMPLE}
      </pre>
      <p className="font-medium text-slate-900">Example, with semicolons:</p>
      <pre
        tabIndex={0}
        role="region"
        aria-label="Example file with semicolons"
        className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs text-slate-900"
      >
        {SEMICOLON_EXAMPLE}
      </pre>
    </Card>
  );
}

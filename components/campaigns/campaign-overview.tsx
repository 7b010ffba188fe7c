import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { TextLink } from "@/components/ui/text-link";
import { isDiscarded, type CampaignRowView, type CampaignView, type RowFilter } from "@/lib/client/campaigns/view";

import { CampaignActions } from "./campaign-actions";
import { campaignHref, campaignRowsSearch, formatNaira, plural, timeLeftText } from "./format";
import { ProgressBar } from "./progress-bar";
import { ProblemRowsTable } from "./rows-table";

interface Listed {
  items: CampaignRowView[];
  total: number;
}

function MoreRows({ base, shown, total, filter, what }: { base: string; shown: number; total: number; filter: "invalid" | "warning"; what: string }) {
  if (total <= shown) return null;
  return (
    <p className="text-sm text-slate-700">
      Showing the first {shown.toLocaleString("en")} of {plural(total, what)}.{" "}
      <TextLink href={`${base}${campaignRowsSearch({ status: filter, page: 1 })}#rows-heading`}>Page through them in the table below</TextLink>.
    </p>
  );
}

/** A draft: what the file holds, what will not be sent and why, and the Start button. */
export function CampaignPreview({
  campaign,
  invalid,
  warnings,
  canSend,
}: {
  campaign: CampaignView;
  invalid: Listed | null;
  warnings: Listed | null;
  canSend: boolean;
}) {
  const { counts } = campaign;
  const sendable = Math.max(0, counts.total - counts.invalid);
  return (
    <Card as="section" aria-labelledby="preview-heading" className="space-y-5 p-4">
      <div>
        <h2 id="preview-heading" className="text-lg font-semibold">
          Preview
        </h2>
        <p className="text-sm text-slate-700">Nothing has been sent yet. Check the rows, then start the campaign to send one request per sendable row.</p>
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Detail label="Rows in the file" testId="count-total" valueClassName="text-xl font-semibold tabular-nums">
          {counts.total.toLocaleString("en")}
        </Detail>
        <Detail label="Invalid (not sent)" testId="count-invalid" valueClassName="text-xl font-semibold tabular-nums">
          {counts.invalid.toLocaleString("en")}
        </Detail>
        <Detail label="Sendable" testId="count-sendable" valueClassName="text-xl font-semibold tabular-nums">
          {sendable.toLocaleString("en")}
        </Detail>
        <Detail label="Total asked" testId="amount-asked" valueClassName="text-xl font-semibold tabular-nums">
          {formatNaira(campaign.amounts.asked)}
        </Detail>
      </dl>
      {sendable > 0 ? <p className="text-sm text-slate-700">Sending takes {timeLeftText(campaign.etaSeconds, "sending")}.</p> : null}
      {campaign.family && campaign.family.stillOpen > 0 ? (
        <p className="text-sm text-amber-900" data-testid="still-open-warning">
          {campaign.family.stillOpen.toLocaleString("en")} {campaign.family.stillOpen === 1 ? "person" : "people"} in this round still{" "}
          {campaign.family.stillOpen === 1 ? "has" : "have"} an open request from an earlier round: the service cannot withdraw it, so they will hold two open
          requests. If both are paid, the second payment is to be refunded.
        </p>
      ) : null}
      {invalid && invalid.total > 0 ? (
        <section aria-labelledby="invalid-heading" className="space-y-2">
          <h3 id="invalid-heading" className="font-semibold">
            Invalid rows ({invalid.total.toLocaleString("en")})
          </h3>
          <ProblemRowsTable label="Invalid rows" caption="Rows that will not be sent, with the reason" items={invalid.items} kind="error" />
          <MoreRows base={campaignHref(campaign.id)} shown={invalid.items.length} total={invalid.total} filter="invalid" what="invalid row" />
        </section>
      ) : null}
      {warnings && warnings.total > 0 ? (
        <section aria-labelledby="warnings-heading" className="space-y-2">
          <h3 id="warnings-heading" className="font-semibold">
            Warnings ({warnings.total.toLocaleString("en")})
          </h3>
          <p className="text-sm text-slate-700">These rows will be sent; check that you mean them.</p>
          <ProblemRowsTable
            label="Rows with warnings"
            caption="Rows that will be sent but look doubtful, with the warning"
            items={warnings.items}
            kind="warning"
          />
          <MoreRows base={campaignHref(campaign.id)} shown={warnings.items.length} total={warnings.total} filter="warning" what="row with a warning" />
        </section>
      ) : null}
      {canSend ? (
        <CampaignActions id={campaign.id} name={campaign.name} status={campaign.status} sendable={sendable} asked={campaign.amounts.asked} />
      ) : (
        <p className="text-sm text-slate-700">An admin or operator starts the campaign.</p>
      )}
    </Card>
  );
}

/** A started campaign: progress, counts, amounts, time left, the buttons its status allows, the results file. */
export function CampaignProgressPanel({ campaign, canSend, status }: { campaign: CampaignView; canSend: boolean; status?: RowFilter }) {
  const { counts, amounts } = campaign;
  // The download follows the rows filter in view.
  const resultsHref = `/api/campaigns/${encodeURIComponent(campaign.id)}/results.csv${status ? `?status=${status}` : ""}`;
  const COUNTS: [label: string, value: number, testId: string][] = [
    ["Queued", counts.queued, "count-queued"],
    ["Sent, waiting", counts.sent, "count-sent"],
    ["Accepted", counts.accepted, "count-accepted"],
    ["Declined", counts.declined, "count-declined"],
    ["Failed", counts.failed, "count-failed"],
    ["Outcome unknown (not sent again)", counts.unknown, "count-unknown"],
    ["Skipped", counts.skipped, "count-skipped"],
    ["Invalid", counts.invalid, "count-invalid"],
    ["Rows in the file", counts.total, "count-total"],
  ];
  return (
    <Card as="section" aria-labelledby="progress-heading" className="space-y-5 p-4">
      <h2 id="progress-heading" className="text-lg font-semibold">
        Progress
      </h2>
      {isDiscarded(campaign) ? (
        <p className="text-sm text-slate-700" data-testid="campaign-discarded">
          Discarded before it was started: nobody was asked.
        </p>
      ) : (
        <ProgressBar counts={counts} id="campaign-progress" />
      )}
      {campaign.pausedReason ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="campaign-paused-reason">
          {campaign.pausedReason}
        </p>
      ) : null}
      <p className="text-sm text-slate-700" data-testid="campaign-time-left">
        {campaign.status === "sending" || campaign.status === "paused"
          ? `Time left: ${timeLeftText(campaign.etaSeconds, campaign.status)}.`
          : campaign.status === "done"
            ? "Finished sending. The accepted and declined counts keep changing as people answer."
            : isDiscarded(campaign)
              ? "Nothing was sent."
              : "Cancelled: rows not yet being sent were skipped."}
      </p>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {COUNTS.map(([label, value, testId]) => (
          <Detail key={testId} label={label} testId={testId} valueClassName="text-lg font-semibold tabular-nums">
            {value.toLocaleString("en")}
          </Detail>
        ))}
      </dl>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Detail label="Asked" testId="amount-asked" valueClassName="text-xl font-semibold tabular-nums">
          {formatNaira(amounts.asked)}
        </Detail>
        <Detail label="Accepted" testId="amount-accepted" valueClassName="text-xl font-semibold tabular-nums">
          {formatNaira(amounts.accepted)}
        </Detail>
        <Detail label="Collected after fees" testId="amount-collected" valueClassName="text-xl font-semibold tabular-nums">
          {formatNaira(amounts.collected)}
        </Detail>
        <Detail label="Outstanding" testId="amount-outstanding" valueClassName="text-xl font-semibold tabular-nums">
          {formatNaira(amounts.outstanding)}
        </Detail>
      </dl>
      <div className="flex flex-wrap items-start gap-3">
        <a href={resultsHref} download className={buttonClasses("secondary")}>
          Download results
        </a>
      </div>
      {canSend ? (
        <CampaignActions id={campaign.id} name={campaign.name} status={campaign.status} sendable={Math.max(0, counts.total - counts.invalid)} />
      ) : null}
    </Card>
  );
}

"use client";

import { PayerTag } from "@/components/payers/payer-tag";
import { useQuery } from "@tanstack/react-query";

import { LocalTime } from "@/components/ui/local-time";
import { LinkedPayment } from "@/components/payments/linked-payment";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { TextLink } from "@/components/ui/text-link";
import { ErrorPanel } from "@/components/ui/error-panel";
import { formatMajor } from "@/lib/client/money";
import { payerHref } from "@/lib/client/payers/tag";
import { requestQuery } from "@/lib/client/query/options";

import { StatusBadge } from "./status-badge";

function Party({ label, party, link = false }: { label: string; party: { name: string; tag: string } | null; link?: boolean }) {
  return (
    <Detail label={label} valueClassName="font-medium">
      {party ? (
        <>
          {party.name ? `${party.name} ` : ""}
          {link ? <PayerTag tag={party.tag} /> : `@${party.tag}`}
        </>
      ) : (
        "—"
      )}
    </Detail>
  );
}

export function RequestDetail({ id, canSend = false }: { id: string; canSend?: boolean }) {
  const query = useQuery(requestQuery(id));
  if (query.isPending) return <p className="text-slate-600">Loading…</p>;
  if (query.isError) return <ErrorPanel title="This request could not be loaded" message={query.error.message} />;
  const r = query.data;
  const final = r.status === "accepted" || r.status === "declined";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Request {r.requestId ? `#${r.requestId}` : r.reference}</h1>
        <StatusBadge status={r.status} />
        {!r.local ? <span className="text-xs text-slate-600">(not sent from this dashboard)</span> : null}
        {canSend ? (
          // After a send, the next person is one click away.
          <TextLink href="/requests/new" className="ml-auto text-sm font-medium" data-testid="send-another">
            Send another request
          </TextLink>
        ) : null}
      </div>
      <Card as="dl" className="grid gap-4 p-4 sm:grid-cols-2">
        <Detail label="Amount" testId="request-amount" valueClassName="text-xl font-semibold tabular-nums">
          {formatMajor("NGN", r.amount)}
        </Detail>
        <Detail label="Description" valueClassName="break-words">
          {r.description}
        </Detail>
        <Party label="Requested by" party={r.requestedBy} />
        <Party label="Sent to" party={r.requestedSentTo ?? { name: "", tag: r.tag }} link />
        <Detail label="Sent by">{r.createdBy?.name ?? "—"}</Detail>
        {r.campaign ? (
          <Detail label="Campaign">
            <TextLink href={`/campaigns/${encodeURIComponent(r.campaign.id)}`}>{r.campaign.name}</TextLink>
            {r.campaign.startedBy ? <span className="text-slate-700"> · started by {r.campaign.startedBy}</span> : null}
          </Detail>
        ) : null}
        <Detail label="Your reference" testId="request-business-reference" valueClassName="break-words">
          {r.businessReference ?? "—"}
        </Detail>
        <Detail label="Our reference" valueClassName="font-mono text-xs">
          {r.reference ?? "—"}
        </Detail>
      </Card>
      {r.error && r.status === "failed" ? <ErrorPanel title="The service did not take this request" message={r.error} /> : null}
      {r.status === "failed" && r.local ? (
        // A new request with the same details, for the person to check and send (a new key: never the failed one's).
        <TextLink href={`/requests/new?${new URLSearchParams({ tag: r.tag, amount: r.amount, description: r.description }).toString()}`}>Try again</TextLink>
      ) : null}
      {/* A note on a request that was not refused: a payment linked to it at once that the service then contradicted. */}
      {r.error && r.status !== "failed" ? (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {r.error}
        </p>
      ) : null}
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className="mb-2 text-lg font-semibold">
          Timeline
        </h2>
        <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm" data-testid="timeline">
          <li>
            <span className="font-medium">Sent</span> · <LocalTime iso={r.createdAt} />
          </li>
          {r.status === "pending" ? (
            <li className="text-slate-600">
              Waiting for <TextLink href={payerHref(r.tag)}>@{r.tag.replace(/^@/, "")}</TextLink> to accept or decline…
            </li>
          ) : null}
          {final ? (
            <li data-testid="timeline-final">
              <span className="font-medium">{r.status === "accepted" ? "Accepted" : "Declined"}</span> · <LocalTime iso={r.decidedAt} />
            </li>
          ) : null}
          {r.status === "failed" ? (
            <li className="text-red-800">
              Failed · <LocalTime iso={r.updatedAt} />
            </li>
          ) : null}
        </ol>
      </section>
      <section aria-labelledby="payment-heading">
        <h2 id="payment-heading" className="mb-2 text-lg font-semibold">
          Payment
        </h2>
        {r.paymentUuid ? (
          <LinkedPayment uuid={r.paymentUuid} />
        ) : (
          <p className="text-sm text-slate-700" data-testid="linked-payment">
            {r.status === "accepted" ? "Accepted; waiting for the service's payment notice." : "No payment yet."}
          </p>
        )}
      </section>
    </div>
  );
}

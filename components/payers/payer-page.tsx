"use client";

import { useQuery } from "@tanstack/react-query";

import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LocalTime } from "@/components/ui/local-time";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { VerificationBadge } from "@/components/payments/verification-badge";
import { StatusBadge } from "@/components/requests/status-badge";
import { formatMajor } from "@/lib/client/money";
import { payerQuery } from "@/lib/client/query/options";

import { DoNotAskForm } from "./do-not-ask-form";
import { answerTimeText } from "./format";

const REQUEST_COLUMNS: Column[] = [{ label: "Amount", align: "right", lead: true }, { label: "Status", lead: true }, "Description", "Campaign", "Asked"];
const PAYMENT_COLUMNS: Column[] = [
  { label: "Amount", align: "right", lead: true },
  { label: "Settled", align: "right" },
  "Verification",
  "Description",
  "Received",
];

/** One payer: their counts, contact (masked for viewers), do-not-ask, and their last 50 requests and payments. */
export function PayerPage({ tag, canMark }: { tag: string; canMark: boolean }) {
  const query = useQuery(payerQuery(tag));
  if (query.isError) return <ErrorPanel title="This payer could not be loaded" message={query.error.message} />;
  if (!query.data) return <p className="text-slate-600">Loading…</p>;
  const { payer, contact, doNotAsk, requests, payments, campaigns } = query.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-all">@{payer.tag}</h1>
        {payer.name ? <span className="text-slate-700">{payer.name}</span> : null}
        {doNotAsk ? <Badge tone="warning">Do not ask</Badge> : null}
        {payer.overpaid > 0 ? (
          <Badge tone="danger" data-testid="payer-overpaid">
            Paid twice
          </Badge>
        ) : null}
      </div>
      {payer.overpaid > 0 ? (
        <p className="text-sm text-red-800" data-testid="payer-overpaid-note">
          {payer.overpaid === 1 ? "One payment" : `${payer.overpaid} payments`} from @{payer.tag} came on top of what was asked (a chase or a second period paid
          as well). <TextLink href="/exceptions?kind=duplicate_payment">Refund or keep it as credit from the exceptions inbox</TextLink>.
        </p>
      ) : null}
      <Card className="p-4">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Detail label="Collected after fees" testId="payer-collected" valueClassName="text-lg font-semibold tabular-nums">
            {formatMajor("NGN", payer.collected)}
          </Detail>
          <Detail label="Asked" testId="payer-asked">
            {payer.asked}
          </Detail>
          <Detail label="Accepted / declined">
            {payer.accepted} / {payer.declined}
          </Detail>
          <Detail label="Still to answer" testId="payer-unanswered">
            {payer.unanswered}
          </Detail>
          <Detail label="Failed to send">{payer.failed}</Detail>
          <Detail label="Usually answers in">{answerTimeText(payer.medianAnswerSeconds)}</Detail>
          <Detail label="Last activity">
            <LocalTime iso={payer.lastActivityAt} />
          </Detail>
          <Detail label="Contact (latest payment)" testId="payer-contact">
            {contact ? (
              <>
                <div>{contact.name}</div>
                <div className="text-sm break-all text-slate-700">{contact.email ?? "no e-mail"}</div>
                <div className="text-sm text-slate-700">{contact.phone ?? "no phone"}</div>
              </>
            ) : (
              "No payment yet"
            )}
          </Detail>
        </dl>
      </Card>
      <section aria-labelledby="dna-heading" className="space-y-2">
        <h2 id="dna-heading" className="text-lg font-semibold">
          Do not ask
        </h2>
        {doNotAsk ? (
          <p className="text-sm text-slate-800" data-testid="do-not-ask-mark">
            Marked by {doNotAsk.markedBy} on <LocalTime iso={doNotAsk.markedAt} />
            {doNotAsk.note ? `: ${doNotAsk.note}` : ""}. Requests, campaign rows and chases to this tag are refused.
          </p>
        ) : (
          <p className="text-sm text-slate-700">This person may be asked.</p>
        )}
        {canMark ? <DoNotAskForm tag={payer.tag} marked={doNotAsk !== null} /> : null}
      </section>
      {campaigns.length > 0 ? (
        <section aria-labelledby="payer-campaigns" className="space-y-2">
          <h2 id="payer-campaigns" className="text-lg font-semibold">
            Campaigns
          </h2>
          <ul className="list-disc pl-5 text-sm">
            {campaigns.map((c) => (
              <li key={c.id}>
                <TextLink href={`/campaigns/${c.id}`}>{c.name}</TextLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="payer-requests" className="space-y-2">
        <h2 id="payer-requests" className="text-lg font-semibold">
          Requests (latest 50)
        </h2>
        <DataTable
          label="This payer's requests"
          caption="Requests to this payer, newest first"
          columns={REQUEST_COLUMNS}
          empty={requests.length === 0 ? "None yet." : null}
        >
          {requests.map((r) => (
            <tr key={r.id} data-testid="payer-request-row">
              <Td className="text-right whitespace-nowrap tabular-nums">
                {r.requestId ? <TextLink href={`/requests/${r.requestId}`}>{formatMajor("NGN", r.amount)}</TextLink> : formatMajor("NGN", r.amount)}
              </Td>
              <Td>
                <StatusBadge status={r.status} />
              </Td>
              <Td>
                <OneLine text={r.description} className="max-w-xs" />
              </Td>
              <Td>{r.campaign ? <TextLink href={`/campaigns/${r.campaign.id}`}>{r.campaign.name}</TextLink> : "—"}</Td>
              <Td className="whitespace-nowrap text-slate-700">
                <LocalTime iso={r.createdAt} />
              </Td>
            </tr>
          ))}
        </DataTable>
      </section>
      <section aria-labelledby="payer-payments" className="space-y-2">
        <h2 id="payer-payments" className="text-lg font-semibold">
          Payments (latest 50)
        </h2>
        <DataTable
          label="This payer's payments"
          caption="Payments from this payer, newest first"
          columns={PAYMENT_COLUMNS}
          empty={payments.length === 0 ? "None yet." : null}
        >
          {payments.map((p) => (
            <tr key={p.uuid} data-testid="payer-payment-row">
              <Td className="text-right whitespace-nowrap tabular-nums">
                <TextLink href={`/payments/${p.uuid}`}>{formatMajor("NGN", p.amount)}</TextLink>
              </Td>
              <Td className="text-right whitespace-nowrap tabular-nums">{formatMajor("NGN", p.settledAmount)}</Td>
              <Td>
                <VerificationBadge state={p.verification} byHand={p.recordedByHand} />
              </Td>
              <Td>
                <OneLine text={p.description} className="max-w-xs" />
              </Td>
              <Td className="whitespace-nowrap text-slate-700">
                <LocalTime iso={p.receivedAt} />
              </Td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}

"use client";

import { PayerTag } from "@/components/payers/payer-tag";
import { useQuery } from "@tanstack/react-query";
import type { ComponentProps } from "react";

import { LocalTime } from "@/components/ui/local-time";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { ErrorNote, ErrorPanel } from "@/components/ui/error-panel";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor } from "@/lib/client/money";
import { paymentQuery } from "@/lib/client/query/options";

import { CustomerAvatar } from "./customer-avatar";
import { LinkedRequest } from "./payments-table";
import { ReverifyButton } from "./reverify-button";
import { VerificationBadge } from "./verification-badge";

// Long names, e-mails and descriptions wrap inside their column.
function Item(props: ComponentProps<typeof Detail>) {
  return <Detail valueClassName="break-words" {...props} />;
}

const money = (amount: string) => formatMajor("NGN", amount);

export function PaymentDetail({ uuid, canReverify }: { uuid: string; canReverify: boolean }) {
  const query = useQuery(paymentQuery(uuid));
  if (query.isPending) return <p className="text-slate-600">Loading…</p>;
  if (query.isError) return <ErrorPanel title="This payment could not be loaded" message={`${query.error.message} Reload the page to try again.`} />;
  const p = query.data;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <TextLink href="/payments">All payments</TextLink>
        </p>
        <h1 className="text-2xl font-semibold break-words">Payment from {p.customer.name}</h1>
        <p className="font-mono text-xs break-all text-slate-600">{p.uuid}</p>
      </div>

      <section aria-labelledby="amounts-heading">
        <h2 id="amounts-heading" className="mb-2 text-lg font-semibold">
          Amounts
        </h2>
        <Card as="dl" className="grid grid-cols-2 gap-4 p-4 tabular-nums sm:grid-cols-4">
          <Item label="Asked" testId="payment-amount">
            <span className="text-xl font-semibold">{money(p.amount)}</span>
          </Item>
          <Item label="Paid">{money(p.actualAmount)}</Item>
          <Item label="Fees">{money(p.fees)}</Item>
          <Item label="Settled (collected)" testId="payment-settled">
            <span className="font-semibold">{money(p.settledAmount)}</span>
          </Item>
        </Card>
      </section>

      <section aria-labelledby="verification-heading">
        <h2 id="verification-heading" className="mb-2 text-lg font-semibold">
          Verification
        </h2>
        <Card className="space-y-3 p-4">
          <div aria-live="polite" className="space-y-3">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <VerificationBadge state={p.verification} reason={p.verificationError} byHand={p.recordedByHand !== null} />
              {p.recordedByHand ? (
                <span className="text-slate-700" data-testid="hand-record">
                  Recorded by {p.recordedByHand.by ?? "a person"}
                  {p.recordedByHand.reference ? `, reference ${p.recordedByHand.reference}` : ""}, to settle a lost payment notice. Its notice, if it comes,
                  replaces it.
                </span>
              ) : p.verification === "unverified" ? (
                <span className="text-slate-700">Not yet confirmed at the verify host.</span>
              ) : null}
              {p.verifiedAt ? (
                <span className="text-slate-700">
                  Checked <LocalTime iso={p.verifiedAt} />
                </span>
              ) : null}
            </p>
            {p.verification === "failed" && p.verificationError ? (
              <ErrorNote data-testid="verification-reason">
                <span className="font-medium">Reason: </span>
                {p.verificationError}
              </ErrorNote>
            ) : null}
          </div>
          {canReverify && !p.recordedByHand ? <ReverifyButton uuid={p.uuid} /> : null}
        </Card>
      </section>

      <section aria-labelledby="customer-heading">
        <h2 id="customer-heading" className="mb-2 text-lg font-semibold">
          Customer
        </h2>
        <Card className="flex flex-wrap items-start gap-4 p-4">
          <CustomerAvatar name={p.customer.name} url={p.customer.avatar} size={56} />
          <dl className="grid min-w-0 flex-1 gap-4 sm:grid-cols-2">
            <Item label="Name">{p.customer.name}</Item>
            <Item label="Tag">
              <PayerTag tag={p.customer.tag} />
            </Item>
            <Item label="E-mail">{p.customer.email ?? "—"}</Item>
            <Item label="Phone">{p.customer.phone ?? "—"}</Item>
          </dl>
        </Card>
      </section>

      <section aria-labelledby="details-heading">
        <h2 id="details-heading" className="mb-2 text-lg font-semibold">
          Details
        </h2>
        <Card as="dl" className="grid gap-4 p-4 sm:grid-cols-2">
          <Item label="Received">
            <LocalTime iso={p.receivedAt} />
          </Item>
          <Item label="Type">
            <span className="font-mono text-xs">{p.type}</span>
          </Item>
          <Item label="Description">{p.description || "—"}</Item>
          <Item label="Fund request" testId="payment-request">
            <LinkedRequest requestId={p.requestId} note={p.linkNote} confirmed={p.linkConfirmed} />
          </Item>
          <Item label="Your reference" testId="payment-business-reference">
            {p.businessReference ?? "—"}
          </Item>
        </Card>
      </section>
    </div>
  );
}

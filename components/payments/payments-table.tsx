import { PayerTag } from "@/components/payers/payer-tag";
import { LocalTime } from "@/components/ui/local-time";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td, type Column } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { formatMajor } from "@/lib/client/money";
import type { PaymentView } from "@/lib/payments/view";

import { CustomerAvatar } from "./customer-avatar";
import { VerificationBadge } from "./verification-badge";

export function paymentHref(uuid: string): string {
  return `/payments/${encodeURIComponent(uuid)}`;
}

export function LinkedRequest({ requestId, note, confirmed }: { requestId: string | null; note: string | null; confirmed: boolean }) {
  if (requestId) {
    return (
      <span>
        <TextLink href={`/requests/${encodeURIComponent(requestId)}`} hoverUnderline>
          Request #{requestId}
        </TextLink>
        {/* Linked the moment the payment came in; the service's word follows within the background budget. */}
        {confirmed ? null : <span className="block text-xs text-slate-600">waiting to confirm with the service</span>}
      </span>
    );
  }
  return (
    <span>
      unlinked
      {note ? <span className="block max-w-xs text-xs text-slate-600">{note}</span> : null}
    </span>
  );
}

const money = (amount: string) => formatMajor("NGN", amount);

const COLUMNS: Column[] = [
  "Received",
  "Customer",
  "E-mail and phone",
  "Description",
  { label: "Amount", align: "right", lead: true },
  { label: "Fees", align: "right" },
  { label: "Settled", align: "right" },
  { label: "Verification", lead: true },
  "Request",
];

export function PaymentsTable({ items, empty }: { items: PaymentView[]; empty: string }) {
  return (
    <DataTable label="Payments table" caption="Payments received, newest first" columns={COLUMNS} empty={items.length === 0 ? empty : null}>
      {items.map((p) => (
        <tr key={p.uuid} data-testid="payment-row" data-uuid={p.uuid}>
          <Td className="whitespace-nowrap text-slate-700">
            <LocalTime iso={p.receivedAt} />
          </Td>
          <Td>
            <div className="flex items-center gap-2">
              <CustomerAvatar name={p.customer.name} url={p.customer.avatar} />
              <div>
                <TextLink href={paymentHref(p.uuid)} hoverUnderline className="inline-block leading-6 font-medium">
                  {p.customer.name}
                </TextLink>
                <PayerTag tag={p.customer.tag} className="text-xs text-slate-600" />
              </div>
            </div>
          </Td>
          <Td className="text-xs">
            <div className="max-w-56">
              <OneLine text={p.customer.email ?? "—"} />
            </div>
            <div className="whitespace-nowrap">{p.customer.phone ?? "—"}</div>
          </Td>
          <Td>
            <OneLine text={p.description ?? "—"} className="max-w-64" />
          </Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{money(p.amount)}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{money(p.fees)}</Td>
          <Td className="text-right whitespace-nowrap tabular-nums">{money(p.settledAmount)}</Td>
          <Td>
            <VerificationBadge state={p.verification} reason={p.verificationError} byHand={p.recordedByHand !== null} />
          </Td>
          <Td>
            <LinkedRequest requestId={p.requestId} note={p.linkNote} confirmed={p.linkConfirmed} />
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

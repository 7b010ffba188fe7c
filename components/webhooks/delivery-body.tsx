import { TextLink } from "@/components/ui/text-link";
import { formatMajor, serviceAmountToNaira, type AmountUnit } from "@/lib/client/money";
import { PAYER_TAG_RE, payerHref } from "@/lib/client/payers/tag";

// A delivery's message for people: the payment it carries in words (how much, from whom, for what), and the whole
// message, laid out, behind "Show the full message" for whoever needs it.

export interface PaymentInWords {
  amount: string;
  name: string | null;
  tag: string | null;
  reference: string | null;
}

const record = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const str = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** The payment a stored body carries, in words; null when the body is not a payment message we can read. */
export function paymentInWords(body: string, unit: AmountUnit): PaymentInWords | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const message = record(parsed);
  const amount = message?.amount;
  if (!message || typeof amount !== "number" || !Number.isFinite(amount)) return null;
  const customer = record(message.customer);
  const name = str(customer?.name) ?? str(record(message.meta)?.name);
  const tag = str(customer?.tag) ?? str(record(message.meta)?.peer_tag);
  return { amount: formatMajor("NGN", serviceAmountToNaira(amount, unit)), name, tag, reference: str(message.description) };
}

/** The body laid out for reading: indented JSON, or the text as stored when it is not JSON. */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function DeliveryPayment({ body, unit }: { body: string | null; unit: AmountUnit }) {
  const payment = body ? paymentInWords(body, unit) : null;
  if (!payment) return <>—</>;
  return (
    <span data-testid="delivery-payment">
      <span className="font-medium tabular-nums whitespace-nowrap">{payment.amount}</span> from {payment.name ?? (payment.tag ? null : "an unnamed customer")}
      {payment.tag ? (
        <>
          {payment.name ? " (" : null}
          {/* The payer's page for a tag that can be one; any other text the service sent stays as text. */}
          {PAYER_TAG_RE.test(payment.tag) ? <TextLink href={payerHref(payment.tag)}>@{payment.tag.replace(/^@/, "")}</TextLink> : `@${payment.tag}`}
          {payment.name ? ")" : null}
        </>
      ) : null}
      {payment.reference ? (
        <span className="block text-xs text-slate-600">
          Reference: <q>{payment.reference}</q>
        </span>
      ) : null}
    </span>
  );
}

/** The full message and the technical facts, folded away. */
export function DeliveryDetails({
  body,
  httpStatus,
  eventType,
  uuid,
  detail,
}: {
  body: string | null;
  httpStatus: number;
  eventType: string | null;
  uuid: string | null;
  detail: string | null;
}) {
  return (
    <details>
      <summary className="cursor-pointer text-brand-700">{body ? "Show the full message" : "Technical details"}</summary>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-xs text-slate-700">
        <dt>Answered</dt>
        <dd className="tabular-nums">HTTP {httpStatus}</dd>
        {eventType ? (
          <>
            <dt>Event</dt>
            <dd className="font-mono">{eventType}</dd>
          </>
        ) : null}
        {uuid ? (
          <>
            <dt>Transaction</dt>
            <dd className="font-mono break-words">{uuid}</dd>
          </>
        ) : null}
        {detail ? (
          <>
            <dt>Note</dt>
            <dd className="break-words">{detail}</dd>
          </>
        ) : null}
      </dl>
      {body ? (
        <pre tabIndex={0} aria-label="The message as received" className="mt-2 max-h-64 max-w-md overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre">
          {prettyBody(body)}
        </pre>
      ) : null}
    </details>
  );
}

"use client";

import { useEffect, useRef, useState } from "react";

import { PayerTag } from "@/components/payers/payer-tag";
import { paymentHref } from "@/components/payments/payments-table";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Detail } from "@/components/ui/detail";
import { LocalTime } from "@/components/ui/local-time";
import { TextLink } from "@/components/ui/text-link";
import { KIND_LABELS, type ExceptionView } from "@/lib/client/exceptions/view";
import { formatMajor } from "@/lib/client/money";

import { KIND_TONES } from "./format";
import { ReopenButton } from "./reopen-button";
import { ResolveForm } from "./resolve-form";

// One exception as a card (a phone reads it as it is, nothing scrolls sideways): what, when, whose, why, how it was
// settled, and its one action for admins and operators: Resolve (a panel) while open, Reopen once resolved.

export function ExceptionCard({ exception: e, canAct, onChanged }: { exception: ExceptionView; canAct: boolean; onChanged: (message: string) => void }) {
  const [resolving, setResolving] = useState(false);
  const resolveButton = useRef<HTMLButtonElement>(null);
  const wasResolving = useRef(false);
  useEffect(() => {
    // Back to the Resolve button when the panel is cancelled.
    if (!resolving && wasResolving.current) resolveButton.current?.focus();
    wasResolving.current = resolving;
  }, [resolving]);

  return (
    <Card as="li" className="space-y-3 p-4" data-testid="exception" data-id={e.id} data-kind={e.kind} data-status={e.status} data-tag={e.tag ?? ""}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">
          <Badge tone={KIND_TONES[e.kind]}>{KIND_LABELS[e.kind]}</Badge>
        </h3>
        <p className="text-sm text-slate-700">
          Opened <LocalTime iso={e.openedAt} />
        </p>
      </div>
      <p className="text-sm break-words text-slate-900" data-testid="exception-detail">
        {e.detail}
      </p>
      {e.tag || e.amount || e.paymentUuid || e.requestId ? (
        <dl className="grid grid-cols-2 gap-3 text-sm lg:grid-cols-4">
          {e.tag ? (
            <Detail label="Tag">
              <PayerTag tag={e.tag} />
            </Detail>
          ) : null}
          {e.amount ? (
            <Detail label="Amount" testId="exception-amount" valueClassName="font-medium tabular-nums">
              {formatMajor("NGN", e.amount)}
            </Detail>
          ) : null}
          {e.paymentUuid ? (
            // A uuid is long: its own line on a phone, beside the others on a wide screen.
            <Detail label="Payment" className="col-span-2 lg:col-span-1">
              <TextLink href={paymentHref(e.paymentUuid)} className="font-mono text-xs leading-6 break-all" data-testid="exception-payment">
                {e.paymentUuid}
              </TextLink>
            </Detail>
          ) : null}
          {e.requestId ? (
            <Detail label={e.kind === "unlinked_payment" ? "Linked to request" : "Request"}>
              <TextLink href={`/requests/${encodeURIComponent(e.requestId)}`} className="leading-6" data-testid="exception-request">
                #{e.requestId}
              </TextLink>
            </Detail>
          ) : null}
        </dl>
      ) : null}
      {e.status === "resolved" ? (
        <div className="rounded-md bg-slate-50 p-3 text-sm" data-testid="exception-resolution">
          <p>
            <span className="font-medium" data-testid="exception-resolved-by">
              {e.resolvedBy ? `Resolved by ${e.resolvedBy}` : "Cleared by itself"}
            </span>{" "}
            · <LocalTime iso={e.resolvedAt} />
          </p>
          {e.note ? (
            <p className="mt-1 break-words whitespace-pre-line text-slate-800" data-testid="exception-note">
              {e.note}
            </p>
          ) : null}
        </div>
      ) : null}
      {canAct && e.status === "open" ? (
        resolving ? (
          <ResolveForm exception={e} onResolved={onChanged} onCancel={() => setResolving(false)} />
        ) : (
          <button ref={resolveButton} type="button" className={buttonClasses("primary")} onClick={() => setResolving(true)}>
            Resolve
          </button>
        )
      ) : null}
      {canAct && e.status === "resolved" ? <ReopenButton exception={e} onReopened={onChanged} /> : null}
    </Card>
  );
}

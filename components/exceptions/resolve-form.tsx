"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import type { resolveExceptionSchema } from "@/lib/client/exceptions/schemas";
import { KIND_LABELS, type ExceptionView } from "@/lib/client/exceptions/view";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import { keys } from "@/lib/client/query/options";

import { LinkChoice } from "./link-choice";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// The Resolve panel (POST /api/exceptions/:id/resolve, checked with the handler's schema): a note is required, and a
// payment no request holds may be linked to one of its suggested requests; a refusal (409, 422) is shown in the server's words.

type FormInput = z.input<typeof resolveExceptionSchema>;
type FormOutput = z.output<typeof resolveExceptionSchema>;

export function ResolveForm({ exception, onResolved, onCancel }: { exception: ExceptionView; onResolved: (message: string) => void; onCancel: () => void }) {
  const client = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/exceptions/schemas").then((m) => m.resolveExceptionSchema)),
    defaultValues: { note: "", requestId: "" },
    // The hand-record fields leave the values when their box is unticked.
    shouldUnregister: true,
  });
  const [byHand, setByHand] = useState(false);
  const mutation = useMutation({
    mutationFn: (body: FormOutput) =>
      apiFetchWithMessage<ExceptionView>(`/api/exceptions/${encodeURIComponent(exception.id)}/resolve`, { method: "POST", json: body }),
    onSuccess: ({ data, message }, body) => {
      // The inbox, this exception and the navigation's count; a link changes the request's and the payment's pages too.
      void client.invalidateQueries({ queryKey: keys.exceptions });
      if (body.requestId) {
        void client.invalidateQueries({ queryKey: keys.request(body.requestId) });
        void client.invalidateQueries({ queryKey: keys.requestLists });
      }
      if (data.paymentUuid) void client.invalidateQueries({ queryKey: keys.payment(data.paymentUuid) });
      if (body.payment) {
        // A payment recorded by hand counts at once: the payments, the day book and the payer move with it.
        for (const key of [keys.paymentLists, keys.desk, keys.dayBooks, keys.payers, keys.requestLists]) void client.invalidateQueries({ queryKey: key });
      }
      onResolved(message || `Resolved: ${KIND_LABELS[data.kind]}.`);
    },
    onError: (error) => {
      if (error instanceof ApiError)
        showServerFieldErrors(form.setError, error.fieldErrors, [
          "note",
          "requestId",
          "acceptDifferentAmount",
          "payment.amount",
          "payment.fees",
          "payment.reference",
        ]);
    },
  });

  useEffect(() => {
    // Opened by its button: focus moves to the panel, whose heading says what is being resolved.
    heading.current?.focus();
  }, []);

  const base = `resolve-${exception.id}`;
  const noteError = form.formState.errors.note?.message;
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "That did not save. Try again.") : null;
  return (
    <section aria-labelledby={`${base}-heading`} className="space-y-3 rounded-md border border-slate-300 bg-slate-50 p-3" data-testid="resolve-panel">
      <h4 id={`${base}-heading`} ref={heading} tabIndex={-1} className="font-semibold focus:outline-none">
        Resolve: {KIND_LABELS[exception.kind]}
      </h4>
      <form className="space-y-3" noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <ReadyFieldset className="space-y-3">
          {linkable(exception) ? (
            <LinkChoice
              exceptionId={exception.id}
              field={form.register("requestId")}
              error={form.formState.errors.requestId?.message}
              differentAmount={form.register("acceptDifferentAmount")}
              differentAmountError={form.formState.errors.acceptDifferentAmount?.message}
            />
          ) : null}
          {exception.kind === "accepted_without_payment" ? (
            <fieldset className="space-y-3" data-testid="hand-record-fields">
              <legend className="sr-only">Record the payment by hand</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={byHand} onChange={(e) => setByHand(e.target.checked)} data-testid="hand-record-toggle" />
                Record the payment by hand (from the bank statement or the service&apos;s app); it shows &ldquo;recorded by hand, not verified&rdquo; and its
                payment notice, if it comes, replaces it
              </label>
              {byHand ? <HandFields base={base} form={form} askedAmount={exception.amount} /> : null}
            </fieldset>
          ) : null}
          <Field id={`${base}-note`} label="Note (how this was settled)" error={noteError} hint="Required: what you checked and what you did">
            <textarea
              id={`${base}-note`}
              rows={3}
              maxLength={1000}
              className={inputClass}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? `${base}-note-error` : `${base}-note-hint`}
              {...form.register("note")}
            />
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? "Resolving…" : "Resolve"}
            </Button>
            <Button variant="secondary" onClick={onCancel} disabled={mutation.isPending}>
              Cancel
            </Button>
          </div>
        </ReadyFieldset>
      </form>
      {error ? (
        <ErrorNote role="alert" data-testid="resolve-error">
          {error}
        </ErrorNote>
      ) : null}
    </section>
  );
}

/** A payment no request holds (not linked, or a second payment not linked) may be linked on the way; anything else is resolved with a note alone. */
function linkable(e: ExceptionView): boolean {
  return (e.kind === "unlinked_payment" || e.kind === "duplicate_payment") && e.paymentUuid !== null && e.requestId === null;
}

type ResolveFormApi = ReturnType<typeof useForm<FormInput, unknown, FormOutput>>;

/** Amount paid, fees and the person's reference of a payment recorded by hand; settled is paid less fees. */
function HandFields({ base, form, askedAmount }: { base: string; form: ResolveFormApi; askedAmount: string | null }) {
  const errors = form.formState.errors.payment;
  const fields = [
    {
      name: "payment.amount",
      id: `${base}-amount`,
      label: "Amount paid (₦)",
      hint: askedAmount ? `The request asked ₦${askedAmount}` : "What the payer sent",
      error: errors?.amount?.message,
      defaultValue: askedAmount ?? "",
    },
    {
      name: "payment.fees",
      id: `${base}-fees`,
      label: "Fees (₦)",
      hint: "What the service took; 0 when none",
      error: errors?.fees?.message,
      defaultValue: "0",
    },
    {
      name: "payment.reference",
      id: `${base}-reference`,
      label: "Reference",
      hint: "The bank statement line or the service's transaction reference",
      error: errors?.reference?.message,
      defaultValue: "",
    },
  ] as const;
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      {fields.map((f) => (
        <Field key={f.name} id={f.id} label={f.label} error={f.error} hint={f.hint}>
          <input
            id={f.id}
            className={inputClass}
            inputMode={f.name === "payment.reference" ? undefined : "decimal"}
            defaultValue={f.defaultValue}
            aria-invalid={f.error ? true : undefined}
            aria-describedby={f.error ? `${f.id}-error` : `${f.id}-hint`}
            data-testid={`hand-${f.name.slice("payment.".length)}`}
            {...form.register(f.name)}
          />
        </Field>
      ))}
    </div>
  );
}

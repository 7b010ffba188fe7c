"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
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
  });
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
      onResolved(message || `Resolved: ${KIND_LABELS[data.kind]}.`);
    },
    onError: (error) => {
      if (error instanceof ApiError) showServerFieldErrors(form.setError, error.fieldErrors, ["note", "requestId"]);
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
        {linkable(exception) ? (
          <LinkChoice exceptionId={exception.id} field={form.register("requestId")} error={form.formState.errors.requestId?.message} />
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

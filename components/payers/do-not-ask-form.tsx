"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { doNotAskPatchSchema } from "@/lib/client/payers/schemas";
import type { PayerDetail } from "@/lib/client/payers/view";
import { keys } from "@/lib/client/query/options";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof doNotAskPatchSchema>;
type FormOutput = z.output<typeof doNotAskPatchSchema>;

/** Marks or clears do-not-ask (PATCH /api/payers/:tag, checked with the handler's schema: a note of at most 500 characters). */
export function DoNotAskForm({ tag, marked }: { tag: string; marked: boolean }) {
  const client = useQueryClient();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/payers/schemas").then((m) => m.doNotAskPatchSchema)),
    defaultValues: { doNotAsk: !marked, note: "" },
  });
  const mutation = useMutation({
    mutationFn: (body: FormOutput) => apiFetchWithMessage<PayerDetail>(`/api/payers/${encodeURIComponent(tag)}`, { method: "PATCH", json: body }),
    onSuccess: ({ data }) => {
      client.setQueryData(keys.payer(tag), data);
      void client.invalidateQueries({ queryKey: keys.payerLists });
      form.reset({ doNotAsk: data.doNotAsk === null, note: "" });
    },
  });
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "That did not save. Try again.") : null;
  const noteError = form.formState.errors.note?.message;
  return (
    <div className="space-y-2">
      <form className="flex flex-wrap items-end gap-2" noValidate onSubmit={form.handleSubmit((values) => mutation.mutate({ ...values, doNotAsk: !marked }))}>
        <ReadyFieldset>
          {marked ? null : (
            <Field id="dna-note" label="Note (why, who asked)" error={noteError}>
              <input
                id="dna-note"
                className={inputClass}
                maxLength={500}
                placeholder="e.g. Asked by phone on Monday"
                aria-invalid={noteError ? true : undefined}
                aria-describedby={noteError ? "dna-note-error" : undefined}
                {...form.register("note")}
              />
            </Field>
          )}
          <Button type="submit" variant="secondary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : marked ? "Allow asking again" : "Do not ask again"}
          </Button>
        </ReadyFieldset>
      </form>
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="do-not-ask-status">
        {mutation.isSuccess ? mutation.data.message : ""}
      </p>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </div>
  );
}

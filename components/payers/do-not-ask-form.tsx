"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { PayerDetail } from "@/lib/client/payers/view";
import { keys } from "@/lib/client/query/options";

/** Marks or clears do-not-ask (PATCH /api/payers/:tag, the same rule as the API: a note of at most 500 characters). */
export function DoNotAskForm({ tag, marked }: { tag: string; marked: boolean }) {
  const client = useQueryClient();
  const [note, setNote] = useState("");
  const mutation = useMutation({
    mutationFn: (doNotAsk: boolean) =>
      apiFetchWithMessage<PayerDetail>(`/api/payers/${encodeURIComponent(tag)}`, { method: "PATCH", json: { doNotAsk, note } }),
    onSuccess: ({ data }) => {
      client.setQueryData(keys.payer(tag), data);
      void client.invalidateQueries({ queryKey: keys.payerLists });
      setNote("");
    },
  });
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "That did not save. Try again.") : null;
  return (
    <div className="space-y-2">
      {marked ? (
        <Button variant="secondary" onClick={() => mutation.mutate(false)} disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : "Allow asking again"}
        </Button>
      ) : (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            mutation.mutate(true);
          }}
        >
          <Field id="dna-note" label="Note (why, who asked)">
            <input
              id="dna-note"
              className={inputClass}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder="e.g. Asked by phone on Monday"
            />
          </Field>
          <Button type="submit" variant="secondary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : "Do not ask again"}
          </Button>
        </form>
      )}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="do-not-ask-status">
        {mutation.isSuccess ? mutation.data.message : ""}
      </p>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </div>
  );
}

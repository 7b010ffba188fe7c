"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ApiError, apiFetch } from "@/lib/http/api-fetch";
import type { PaymentView } from "@/lib/payments/view";
import { keys } from "@/lib/queries";

import { verificationLabel } from "./verification-badge";

export function ReverifyButton({ uuid }: { uuid: string }) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiFetch<PaymentView>(`/api/payments/${encodeURIComponent(uuid)}/verify`, { method: "POST" }),
    onSuccess: (payment) => {
      client.setQueryData(keys.payment(uuid), payment);
      void client.invalidateQueries({ queryKey: keys.payments });
      void client.invalidateQueries({ queryKey: keys.requests });
    },
  });
  const error = mutation.isError
    ? mutation.error instanceof ApiError
      ? mutation.error.message
      : "The payment could not be re-verified. Try again."
    : null;

  return (
    <div className="space-y-2">
      <button
        type="button"
        onClick={() => mutation.mutate()}
        disabled={mutation.isPending}
        className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
      >
        {mutation.isPending ? "Re-verifying…" : "Re-verify"}
      </button>
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="reverify-status">
        {mutation.isPending
          ? "Asking the verify host; this can take a few seconds."
          : mutation.isSuccess
            ? `Checked at the verify host just now: ${verificationLabel(mutation.data.verification)}.`
            : ""}
      </p>
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
    </div>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import type { PaymentView } from "@/lib/payments/view";
import { keys } from "@/lib/client/query/options";

import { verificationLabel } from "./verification-badge";

export function ReverifyButton({ uuid }: { uuid: string }) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiFetch<PaymentView>(`/api/payments/${encodeURIComponent(uuid)}/verify`, { method: "POST" }),
    onSuccess: (payment) => {
      client.setQueryData(keys.payment(uuid), payment);
      // Its verification shows in the lists too (its request's page reads this payment's own query).
      void client.invalidateQueries({ queryKey: keys.paymentLists });
    },
  });
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "The payment could not be re-verified. Try again.") : null;

  return (
    <div className="space-y-2">
      <Button variant="secondary" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
        {mutation.isPending ? "Re-verifying…" : "Re-verify"}
      </Button>
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="reverify-status">
        {mutation.isPending
          ? "Asking the verify host; this can take a few seconds."
          : mutation.isSuccess
            ? `Checked at the verify host just now: ${verificationLabel(mutation.data.verification)}.`
            : ""}
      </p>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </div>
  );
}

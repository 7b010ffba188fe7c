"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { KIND_LABELS, type ExceptionView } from "@/lib/client/exceptions/view";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import { keys } from "@/lib/client/query/options";

// Reopen (POST /api/exceptions/:id/reopen): a resolved exception goes back to the open list; a refusal shows the server's reason.

export function ReopenButton({ exception, onReopened }: { exception: ExceptionView; onReopened: (message: string) => void }) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiFetchWithMessage<ExceptionView>(`/api/exceptions/${encodeURIComponent(exception.id)}/reopen`, { method: "POST" }),
    onSuccess: ({ data, message }) => {
      void client.invalidateQueries({ queryKey: keys.exceptions });
      onReopened(message || `Reopened: ${KIND_LABELS[data.kind]}.`);
    },
  });
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "That did not save. Try again.") : null;
  return (
    <div className="space-y-2">
      <Button variant="secondary" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
        {mutation.isPending ? "Reopening…" : "Reopen"}
      </Button>
      {error ? (
        <ErrorNote role="alert" data-testid="reopen-error">
          {error}
        </ErrorNote>
      ) : null}
    </div>
  );
}

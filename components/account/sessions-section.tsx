"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { LocalTime, useTimeZone } from "@/components/ui/local-time";
import { formatTime } from "@/lib/client/time/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNote, ErrorPanel } from "@/components/ui/error-panel";
import { DataTable, Td } from "@/components/ui/table";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import { keys, sessionsQuery } from "@/lib/client/query/options";

import { deviceName } from "./device-name";

type Action = { kind: "one"; id: string } | { kind: "others" };

/** The person's open sessions, with "Sign out" for each other one and "Sign out everywhere else". */
export function SessionsSection() {
  const client = useQueryClient();
  const timeZone = useTimeZone();
  const query = useQuery(sessionsQuery());
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const mutation = useMutation({
    mutationFn: (action: Action) =>
      action.kind === "one"
        ? apiFetchWithMessage(`/api/me/sessions/${encodeURIComponent(action.id)}`, { method: "DELETE" })
        : apiFetchWithMessage("/api/me/sessions/revoke-others", { method: "POST" }),
    onMutate: () => setMessage(null),
    onSuccess: ({ message: said }) => setMessage({ kind: "ok", text: said || "Signed out." }),
    onError: (error) =>
      setMessage({ kind: "error", text: error instanceof ApiError ? error.message : "That session could not be signed out. Reload the page and try again." }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.sessions }),
  });

  if (query.isError) return <ErrorPanel title="Your sessions could not be loaded" message={query.error.message} />;
  const items = query.data?.items ?? [];
  const others = items.filter((s) => !s.current).length;
  const busyWith = mutation.isPending ? mutation.variables : null;

  return (
    <div className="space-y-3">
      <DataTable
        label="Open sessions"
        caption="Your open sessions"
        columns={["Device", "Address", "Started", "Last seen", "Action"]}
        empty={query.isPending ? "Loading…" : items.length === 0 ? "No open sessions." : undefined}
      >
        {items.map((s) => (
          <tr key={s.id} data-testid="session-row">
            <Td>
              <span title={s.userAgent || undefined}>{deviceName(s.userAgent)}</span>
              {s.current ? (
                <Badge tone="brand" className="ml-2">
                  This device
                </Badge>
              ) : null}
            </Td>
            <Td className="font-mono">{s.ip}</Td>
            <Td className="whitespace-nowrap">
              <LocalTime iso={s.createdAt} />
            </Td>
            <Td className="whitespace-nowrap">
              <LocalTime iso={s.lastSeenAt} />
            </Td>
            <Td className="text-right">
              {s.current ? null : (
                <Button
                  variant="quiet"
                  disabled={mutation.isPending}
                  onClick={() => mutation.mutate({ kind: "one", id: s.id })}
                  aria-label={`Sign out ${deviceName(s.userAgent)} (${s.ip}), started ${formatTime(s.createdAt, timeZone)}`}
                >
                  {busyWith?.kind === "one" && busyWith.id === s.id ? "Signing out…" : "Sign out"}
                </Button>
              )}
            </Td>
          </tr>
        ))}
      </DataTable>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" disabled={mutation.isPending || others === 0} onClick={() => mutation.mutate({ kind: "others" })}>
          {busyWith?.kind === "others" ? "Signing out…" : "Sign out everywhere else"}
        </Button>
        <p aria-live="polite" className="text-sm text-green-800" data-testid="sessions-message">
          {message?.kind === "ok" ? message.text : null}
        </p>
      </div>
      {message?.kind === "error" ? <ErrorNote role="alert">{message.text}</ErrorNote> : null}
    </div>
  );
}

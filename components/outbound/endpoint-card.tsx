"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { EVENT_TYPES } from "@/lib/client/events/catalogue";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { DeliveryView, EndpointView } from "@/lib/client/outbound/schemas";
import { endpointDeliveriesQuery, keys } from "@/lib/client/query/options";

import { RotateSecretForm } from "./endpoint-rotate-form";

// One outgoing webhook endpoint on /developers/webhooks: its state and secret, its actions (test, turn on/off, rotate,
// reveal, recover, delete) and its deliveries with resend.

const STATUS_WORDS: Record<DeliveryView["status"], string> = { pending: "Trying", delivered: "Delivered", failed: "Failed" };

function DeliveryRow({ d, onResend, busy }: { d: DeliveryView; onResend: (id: string) => void; busy: boolean }) {
  return (
    <tr className="border-t border-slate-200 align-top" data-testid="outbound-delivery" data-status={d.status} data-event={d.eventType}>
      <td className="py-2 pr-3">
        <code className="text-xs">{d.eventType}</code>
        <div className="text-xs break-all text-slate-600">{d.eventId}</div>
      </td>
      <td className="py-2 pr-3">{STATUS_WORDS[d.status]}</td>
      <td className="py-2 pr-3 tabular-nums">{d.attempts}</td>
      <td className="py-2 pr-3">
        {d.lastStatusCode ?? "—"}
        {d.lastError ? <div className="text-xs text-slate-600">{d.lastError}</div> : null}
        {d.lastResponse ? <div className="max-w-xs truncate text-xs text-slate-600">{d.lastResponse}</div> : null}
      </td>
      <td className="py-2 pr-3 text-xs">{d.nextAttemptAt ? <LocalTime iso={d.nextAttemptAt} /> : "—"}</td>
      <td className="py-2">
        {d.status === "pending" ? null : (
          <Button variant="quiet" disabled={busy} onClick={() => onResend(d.id)} aria-label={`Re-send ${d.eventType} ${d.eventId}`}>
            Re-send
          </Button>
        )}
      </td>
    </tr>
  );
}

export function EndpointCard({ endpoint, onSecret }: { endpoint: EndpointView; onSecret: (text: string) => void }) {
  const client = useQueryClient();
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const [testType, setTestType] = useState<string>("payment.received");
  const [since, setSince] = useState("");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const deliveries = useQuery(endpointDeliveriesQuery(endpoint.id, { status, page }));
  const base = `/api/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const act = useMutation({
    mutationFn: (call: { path: string; method?: string; json?: unknown }) =>
      apiFetchWithMessage<{ secret?: string }>(call.path, { method: call.method ?? "POST", json: call.json ?? {} }),
    onSuccess: ({ data, message: said }) => {
      setMessage({ kind: "ok", text: said });
      if (data && typeof data.secret === "string") onSecret(`${endpoint.url}: ${data.secret}`);
      void client.invalidateQueries({ queryKey: keys.endpoints });
    },
    onError: (e) => setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "That did not work. Try again." }),
  });
  const busy = act.isPending;
  const run = (path: string, json?: unknown, method?: string) => act.mutate({ path, json, method });
  const id = endpoint.id;
  return (
    <Card as="section" aria-labelledby={`endpoint-${id}`} className="space-y-3 p-4" data-testid="outbound-endpoint">
      <div className="flex flex-wrap items-start gap-2">
        <h3 id={`endpoint-${id}`} className="min-w-0 flex-1 font-semibold break-all">
          {endpoint.url}
        </h3>
        <span className={endpoint.enabled ? "text-sm text-green-800" : "text-sm text-red-700"} data-testid="endpoint-state">
          {endpoint.enabled ? "On" : `Off${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`}
        </span>
      </div>
      {endpoint.description ? <p className="text-sm text-slate-700">{endpoint.description}</p> : null}
      <p className="text-sm text-slate-700">
        Events: {endpoint.eventTypes === "all" ? "all" : endpoint.eventTypes.join(", ")} · Secret <code>{endpoint.secretHint}</code>
        {endpoint.previousSecretUntil ? (
          <>
            {" "}
            (the previous one signs too until <LocalTime iso={endpoint.previousSecretUntil} />)
          </>
        ) : null}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="block text-slate-700">Test event</span>
          <select className={inputClass} value={testType} onChange={(e) => setTestType(e.target.value)}>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <Button variant="secondary" disabled={busy} onClick={() => run(`${base}/test`, { type: testType })}>
          Send a test event
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => run(base, { enabled: !endpoint.enabled }, "PATCH")}>
          {endpoint.enabled ? "Turn off" : "Turn on"}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => run(`${base}/reveal`)}>
          Reveal secret
        </Button>
        <Button
          variant="quiet"
          disabled={busy}
          onClick={() => {
            if (window.confirm(`Delete the endpoint ${endpoint.url}? It receives nothing more.`)) run(base, undefined, "DELETE");
          }}
        >
          Delete
        </Button>
      </div>
      <RotateSecretForm endpointId={id} endpointUrl={endpoint.url} busy={busy} onRotate={(values) => run(`${base}/rotate-secret`, values)} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="block text-slate-700">Re-send what failed since</span>
          <input type="datetime-local" className={inputClass} value={since} onChange={(e) => setSince(e.target.value)} />
        </label>
        <Button variant="secondary" disabled={busy || since === ""} onClick={() => run(`${base}/recover`, { since: new Date(since).toISOString() })}>
          Re-send failed
        </Button>
      </div>
      {message ? (
        <p role={message.kind === "error" ? "alert" : "status"} className={message.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
          {message.text}
        </p>
      ) : null}
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <h4 className="font-medium">Deliveries</h4>
          <label className="ml-auto flex items-center gap-1">
            <span>Show</span>
            <select
              className={inputClass}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value);
                setPage(1);
              }}
            >
              <option value="">all</option>
              <option value="pending">trying</option>
              <option value="delivered">delivered</option>
              <option value="failed">failed</option>
            </select>
          </label>
        </div>
        {/* relative: the header's screen-reader-only cell is clipped with the table, not laid out past the page's edge. */}
        {deliveries.data && deliveries.data.items.length > 0 ? (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="text-xs text-slate-600">
                  <th className="pr-3 font-medium">Event</th>
                  <th className="pr-3 font-medium">Status</th>
                  <th className="pr-3 font-medium">Attempts</th>
                  <th className="pr-3 font-medium">Last answer</th>
                  <th className="pr-3 font-medium">Next attempt</th>
                  <th className="font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.items.map((d) => (
                  <DeliveryRow
                    key={d.id}
                    d={d}
                    busy={busy}
                    onResend={(deliveryId) => run(`/api/webhook-deliveries/${encodeURIComponent(deliveryId)}/resend`)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-slate-600">{deliveries.isLoading ? "Loading…" : "No deliveries yet."}</p>
        )}
        {deliveries.data && deliveries.data.total > deliveries.data.pageSize ? (
          <div className="flex gap-3 text-sm">
            <Button variant="quiet" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Newer
            </Button>
            <span>
              Page {page} of {Math.ceil(deliveries.data.total / deliveries.data.pageSize)}
            </span>
            <Button variant="quiet" disabled={page * deliveries.data.pageSize >= deliveries.data.total} onClick={() => setPage(page + 1)}>
              Older
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import { Card } from "@/components/ui/card";
import type { ApiKeyCreated, ApiKeyView } from "@/lib/client/api-keys/schemas";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";

import { CreateKeyForm } from "./create-key-form";
import { KeyTable } from "./key-table";
import { apiKeysQuery, keys as queryKeys } from "@/lib/client/query/options";
import { RollKeyForm } from "./roll-key-form";
import { ShownKey, type ShownKeyValue } from "./shown-key";

// /developers/api-keys: a key made or rolled, whole this once; the keys, masked, with Roll and Revoke; the make form.

export function ApiKeysScreen() {
  const client = useQueryClient();
  const keys = useQuery(apiKeysQuery());
  const [shown, setShown] = useState<ShownKeyValue | null>(null);
  const [rolling, setRolling] = useState<ApiKeyView | null>(null);
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.apiKeys });

  const revoke = useMutation({
    mutationFn: (key: ApiKeyView) => apiFetchWithMessage<ApiKeyView>(`/api/api-keys/${encodeURIComponent(key.id)}`, { method: "DELETE" }),
    onSuccess: ({ message: said }) => setMessage({ kind: "ok", text: said }),
    onError: (e) => setMessage({ kind: "error", text: e instanceof ApiError ? e.message : "The key could not be revoked. Try again." }),
    onSettled: refresh,
  });

  function made(created: ApiKeyCreated, said: string) {
    setMessage(null);
    setRolling(null);
    setShown({ name: created.apiKey.name, key: created.key, message: said });
    refresh();
  }

  return (
    <div className="space-y-4">
      {shown ? <ShownKey key={shown.key} shown={shown} onDone={() => setShown(null)} /> : null}
      {rolling ? <RollKeyForm key={rolling.id} apiKey={rolling} onRolled={made} onCancel={() => setRolling(null)} /> : null}
      <section aria-labelledby="keys-heading" className="space-y-2">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Keys
        </h2>
        {message ? (
          <p role={message.kind === "error" ? "alert" : "status"} className={message.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
            {message.text}
          </p>
        ) : null}
        {keys.data ? (
          <KeyTable
            keys={keys.data}
            busy={revoke.isPending}
            onRoll={(key) => {
              setMessage(null);
              setRolling(key);
            }}
            onRevoke={(key) => {
              if (!window.confirm(`Revoke the key “${key.name}” (${key.hint})? Every call made with it is refused from now on; this cannot be undone.`)) return;
              setMessage(null);
              if (rolling?.id === key.id) setRolling(null);
              revoke.mutate(key);
            }}
          />
        ) : (
          <p className="text-sm text-slate-600">{keys.isError ? "The keys could not be read. Reload the page." : "Loading…"}</p>
        )}
      </section>
      <Card as="section" aria-labelledby="make-key" className="space-y-3 p-4">
        <h2 id="make-key" className="text-lg font-semibold">
          Make a key
        </h2>
        <CreateKeyForm onCreated={made} />
      </Card>
    </div>
  );
}

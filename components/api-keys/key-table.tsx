"use client";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td } from "@/components/ui/table";
import type { ApiKeyState, ApiKeyView } from "@/lib/client/api-keys/schemas";

import { presetOf } from "./scopes";

// The API keys on /developers/api-keys, newest first: each masked (its prefix and last 4 characters), never whole.

const STATE: Record<ApiKeyState, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "success" },
  expired: { label: "Expired", tone: "neutral" },
  revoked: { label: "Revoked", tone: "danger" },
};

const COLUMNS = [
  { label: "Name", lead: true },
  { label: "Key", lead: true },
  { label: "State", lead: true },
  "Scopes",
  "Made by",
  "Made",
  "Last used",
  "Expires",
  "Actions",
] as const;

function Scopes({ scopes }: { scopes: ApiKeyView["scopes"] }) {
  const preset = presetOf(scopes);
  if (preset) return <span title={scopes.join(", ")}>{preset}</span>;
  return (
    <ul className="space-y-0.5">
      {scopes.map((s) => (
        <li key={s}>
          <code className="text-xs">{s}</code>
        </li>
      ))}
    </ul>
  );
}

export function KeyTable({
  keys,
  busy,
  onRevoke,
  onRoll,
}: {
  keys: ApiKeyView[];
  busy: boolean;
  onRevoke: (key: ApiKeyView) => void;
  onRoll: (key: ApiKeyView) => void;
}) {
  return (
    <DataTable label="API keys" caption="API keys, newest first" columns={COLUMNS} empty={keys.length === 0 ? "No API keys yet." : undefined}>
      {keys.map((k) => (
        <tr key={k.id} data-testid="api-key-row" data-state={k.state} data-hint={k.hint} className="align-top">
          <Td className="font-medium">{k.name}</Td>
          <Td>
            <code className="text-xs whitespace-nowrap">{k.hint}</code>
          </Td>
          <Td>
            <Badge tone={STATE[k.state].tone}>{STATE[k.state].label}</Badge>
            {k.revokedAt ? (
              <div className="mt-1 text-xs whitespace-nowrap text-slate-600">
                <LocalTime iso={k.revokedAt} />
              </div>
            ) : k.replacedBy ? (
              <div className="mt-1 text-xs text-slate-600">{k.state === "active" ? "Rolled: works until it expires" : "Rolled"}</div>
            ) : null}
          </Td>
          <Td>
            <Scopes scopes={k.scopes} />
          </Td>
          <Td>{k.createdBy?.name ?? "—"}</Td>
          <Td className="whitespace-nowrap">
            <LocalTime iso={k.createdAt} />
          </Td>
          <Td>
            {k.lastUsedAt ? (
              <>
                <span className="whitespace-nowrap">
                  <LocalTime iso={k.lastUsedAt} />
                </span>
                {k.lastUsedIp ? <OneLine text={k.lastUsedIp} className="text-xs text-slate-600" /> : null}
              </>
            ) : (
              "Never"
            )}
          </Td>
          <Td className="whitespace-nowrap">
            <LocalTime iso={k.expiresAt} />
          </Td>
          <Td>
            <div className="flex flex-wrap gap-2">
              {k.state === "active" && !k.replacedBy ? (
                <Button variant="quiet" disabled={busy} onClick={() => onRoll(k)} aria-label={`Roll ${k.name} (${k.hint})`}>
                  Roll
                </Button>
              ) : null}
              {k.state !== "revoked" ? (
                <Button variant="quiet" disabled={busy} onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name} (${k.hint})`}>
                  Revoke
                </Button>
              ) : null}
            </div>
          </Td>
        </tr>
      ))}
    </DataTable>
  );
}

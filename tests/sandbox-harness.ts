// Shared by the request-logic and balance integration tests: a real sandbox over HTTP, its control API,
// request deps wired to a real database, and a bounded condition poll (never a fixed sleep).
import { randomBytes } from "node:crypto";

import type { Db } from "@/lib/db/client";
import { staff } from "@/lib/db/schema";
import type { AmountUnit } from "@/lib/money";
import type { RequestDeps } from "@/lib/requests/deps";
import { createServiceClient, type ServiceClientOptions } from "@/lib/service/client";
import { startSandbox, type Sandbox, type SandboxOptions } from "@/sandbox/server";

export const CREATE_CALL = "POST /api/v1/transfer/request/peer";
export const FETCH_CALL = "GET /api/v1/transfer/request/peer/:request_id";
export const BALANCE_CALL = "GET /api/v1/business/balance";
/** Fault prefixes: the create path is a prefix of the fetch path, so fetch faults use the trailing slash. */
export const CREATE_PATH = "/api/v1/transfer/request/peer";
export const FETCH_PATH = "/api/v1/transfer/request/peer/";

export type FaultMode = "500" | "429" | "timeout" | "malformed" | "slow";

export function startTestSandbox(overrides: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, apiKey: "test-key-requests", autoDelayMs: 50, webhookRetryDelaysMs: [], ...overrides });
}

async function controlCall(sb: Sandbox, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.apiUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (res.status !== 200) throw new Error(`sandbox control ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export interface SandboxRequestRecord {
  request_id: string;
  amount: number;
  description: string;
  request_status: "pending" | "accepted" | "declined";
  requested_sent_to: { name: string; tag: string };
  meta: Record<string, unknown>;
}

/** The control API of one sandbox, typed for the tests. */
export function sandboxControl(sb: Sandbox) {
  return {
    async reset(): Promise<void> {
      await controlCall(sb, "POST", "/sandbox/faults/clear");
      await controlCall(sb, "POST", "/sandbox/stats/reset");
    },
    async fault(path: string, mode: FaultMode, count?: number): Promise<void> {
      await controlCall(sb, "POST", "/sandbox/faults", { path, mode, count });
    },
    async clearFaults(): Promise<void> {
      await controlCall(sb, "POST", "/sandbox/faults/clear");
    },
    async resetStats(): Promise<void> {
      await controlCall(sb, "POST", "/sandbox/stats/reset");
    },
    /** Calls the service routes received since the last reset, by "<METHOD> <pattern>". */
    async calls(): Promise<Record<string, number>> {
      const body = (await controlCall(sb, "GET", "/sandbox/stats")) as { calls: Record<string, number> };
      return body.calls;
    },
    async count(key: string): Promise<number> {
      const body = (await controlCall(sb, "GET", "/sandbox/stats")) as { calls: Record<string, number> };
      return body.calls[key] ?? 0;
    },
    async accept(requestId: string): Promise<void> {
      await controlCall(sb, "POST", `/sandbox/requests/${requestId}/accept`);
    },
    async decline(requestId: string): Promise<void> {
      await controlCall(sb, "POST", `/sandbox/requests/${requestId}/decline`);
    },
    /** Every request the sandbox holds, as it stored them. */
    async requests(): Promise<SandboxRequestRecord[]> {
      const body = (await controlCall(sb, "GET", "/sandbox/requests")) as { data: { requests: SandboxRequestRecord[] } };
      return body.data.requests;
    },
    async request(requestId: string): Promise<SandboxRequestRecord | undefined> {
      const body = (await controlCall(sb, "GET", "/sandbox/requests")) as { data: { requests: SandboxRequestRecord[] } };
      return body.data.requests.find((r) => r.request_id === requestId);
    },
    /** Creates a request straight at the service with the bearer key, not through the dashboard. */
    async createDirect(input: { amount: number; tag: string; description: string; meta?: Record<string, unknown> }): Promise<string> {
      const res = await fetch(`${sb.apiUrl}${CREATE_PATH}`, {
        method: "POST",
        headers: { authorization: `Bearer ${sb.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ meta: {}, ...input }),
      });
      const body = (await res.json()) as { status: boolean; data: { request_id: number } };
      if (res.status !== 200 || !body.status) throw new Error(`direct create answered ${res.status}`);
      return String(body.data.request_id);
    },
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;

/** RequestDeps against the sandbox: short timeout, fast retry backoff. */
export function requestDeps(
  db: Db,
  sb: Sandbox,
  overrides: { amountUnit?: AmountUnit; service?: Partial<ServiceClientOptions> } = {},
): RequestDeps {
  return {
    db,
    service: createServiceClient({
      baseUrl: sb.apiUrl,
      verifyBaseUrl: sb.verifyUrl,
      apiKey: sb.apiKey,
      timeoutMs: 500,
      backoffBaseMs: 5,
      ...overrides.service,
    }),
    amountUnit: overrides.amountUnit ?? "major",
    webhookUrl: "http://127.0.0.1:9/unused",
  };
}

/** A staff member to be `createdBy` (the column references staff). */
export async function insertStaff(db: Db, name = "Test Operator"): Promise<{ id: string; name: string }> {
  const [row] = await db
    .insert(staff)
    .values({ email: `op-${randomBytes(4).toString("hex")}@example.test`, name, role: "operator", passwordHash: "x" })
    .returning({ id: staff.id, name: staff.name });
  if (!row) throw new Error("staff insert returned nothing");
  return row;
}

/** A fresh idempotency key (8–64 of A-Za-z0-9_-). */
export function newKey(label: string): string {
  return `${label.replace(/[^A-Za-z0-9_-]/g, "_")}_${randomBytes(6).toString("hex")}`;
}

/** A fresh consumer tag, so each test has its own sandbox user who waits for a person. */
export function newTag(label: string): string {
  return `${label}.${randomBytes(3).toString("hex")}`;
}

/** Polls until probe returns a value, failing after timeoutMs: a wait for a condition, not a fixed sleep. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

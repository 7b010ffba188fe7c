// The sandbox's control API (no key) at its API host, typed for the tests and the benchmarks: faults, call counts,
// accept/decline as the consumer would (and the transaction an accept made), its records and webhook deliveries.
// Only fetch: usable against a sandbox in this process or one started elsewhere (e2e's, the bench's).
import type { FaultMode } from "@/sandbox/faults";

/** One of the sandbox's own fault modes (sandbox/faults.ts FAULT_MODES). */
export type { FaultMode };

/** Call-count keys, as the sandbox's stats name them ("<METHOD> <pattern>"). */
export const CREATE_CALL = "POST /api/v1/transfer/request/peer";
export const FETCH_CALL = "GET /api/v1/transfer/request/peer/:request_id";
export const BALANCE_CALL = "GET /api/v1/business/balance";
/** Fault prefixes: the create path is a prefix of the fetch path, so fetch faults use the trailing slash. */
export const CREATE_PATH = "/api/v1/transfer/request/peer";
export const FETCH_PATH = "/api/v1/transfer/request/peer/";
export const BALANCE_PATH = "/api/v1/business/balance";

export interface SandboxRequestRecord {
  request_id: string;
  amount: number;
  description: string;
  request_status: "pending" | "accepted" | "declined";
  requested_sent_to: { name: string; tag: string };
  meta: Record<string, unknown>;
}

export interface SandboxDelivery {
  url: string;
  body: string;
  signature: string;
  request_id: number;
  transaction_uuid: string;
  outcome: "pending" | "delivered" | "failed";
  /** Each attempt: its answer's status (or error), when it began and when the answer came (ISO). */
  attempts: { status?: number; error?: string; at: string; answeredAt: string }[];
}

/** The transaction an accept made, as the sandbox answers it (the payload of its payment notice). */
export type SandboxTransaction = Record<string, unknown> & { uuid: string };

/** The sandbox to control: its API host URL, or a started sandbox (whose key createDirect uses). */
export type SandboxTarget = string | { apiUrl: string; apiKey?: string };

export function sandboxControl(target: SandboxTarget) {
  const apiUrl = typeof target === "string" ? target : target.apiUrl;
  const apiKey = typeof target === "string" ? undefined : target.apiKey;

  async function call<T = unknown>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`sandbox control ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
  const calls = async () => (await call<{ calls: Record<string, number> }>("GET", "/sandbox/stats")).calls;
  const requestPath = (requestId: string, action: "accept" | "decline") => `/sandbox/requests/${encodeURIComponent(requestId)}/${action}`;
  const act = async (requestId: string, action: "accept" | "decline"): Promise<void> => {
    await call("POST", requestPath(requestId, action));
  };
  const requests = async () => (await call<{ data: { requests: SandboxRequestRecord[] } }>("GET", "/sandbox/requests")).data.requests;

  return {
    /** Clears the faults and the call counts. */
    async reset(): Promise<void> {
      await call("POST", "/sandbox/faults/clear");
      await call("POST", "/sandbox/stats/reset");
    },
    /** Fails the next `count` calls (all, without a count) whose path starts with `path`. */
    async fault(path: string, mode: FaultMode, count?: number): Promise<void> {
      await call("POST", "/sandbox/faults", { path, mode, ...(count === undefined ? {} : { count }) });
    },
    async clearFaults(): Promise<void> {
      await call("POST", "/sandbox/faults/clear");
    },
    async resetStats(): Promise<void> {
      await call("POST", "/sandbox/stats/reset");
    },
    /** Service calls received since the last reset, by "<METHOD> <pattern>". */
    calls,
    async count(key: string): Promise<number> {
      return (await calls())[key] ?? 0;
    },
    /** Accepts or declines as the consumer would. */
    act,
    async accept(requestId: string): Promise<void> {
      await act(requestId, "accept");
    },
    async decline(requestId: string): Promise<void> {
      await act(requestId, "decline");
    },
    /** Accepts as the consumer; answers the transaction the sandbox made for it (its payment notice's payload). */
    async acceptForPayment(requestId: string): Promise<SandboxTransaction> {
      const answer = await call<{ data?: { transaction?: Record<string, unknown> } }>("POST", requestPath(requestId, "accept"));
      const transaction = answer.data?.transaction;
      if (typeof transaction?.uuid !== "string") throw new Error(`sandbox accept of ${requestId}: no transaction in the answer`);
      return { ...transaction, uuid: transaction.uuid };
    },
    /** Every request the sandbox holds, as it stored them. */
    requests,
    async request(requestId: string): Promise<SandboxRequestRecord | undefined> {
      return (await requests()).find((r) => r.request_id === requestId);
    },
    /** The webhook deliveries it made or is making. */
    async deliveries(): Promise<SandboxDelivery[]> {
      return (await call<{ data: { deliveries: SandboxDelivery[] } }>("GET", "/sandbox/webhooks")).data.deliveries;
    },
    /** Creates a request straight at the service with the bearer key, not through the dashboard. */
    async createDirect(input: { amount: number; tag: string; description: string; meta?: Record<string, unknown> }): Promise<string> {
      if (apiKey === undefined) throw new Error("createDirect needs the sandbox's key: pass the sandbox, not its URL");
      const res = await fetch(`${apiUrl}${CREATE_PATH}`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ meta: {}, ...input }),
      });
      const body = (await res.json()) as { status: boolean; data: { request_id: number } };
      if (res.status !== 200 || !body.status) throw new Error(`direct create answered ${res.status}`);
      return String(body.data.request_id);
    },
  };
}

export type SandboxControl = ReturnType<typeof sandboxControl>;

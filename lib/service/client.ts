import "server-only";
import { envelopeData } from "./envelope-data";
import { InvalidIdentifierError, ServiceError, type ServiceErrorKind, type ServiceOperation } from "./errors";
import { exchange } from "./exchange";
import { sleep } from "@/lib/util/sleep";

import { fullJitterDelay } from "./retry";
import {
  balanceEnvelopeSchema,
  createFundRequestEnvelopeSchema,
  fundRequestEnvelopeSchema,
  UUID_RE,
  verifiedTransactionEnvelopeSchema,
  type Balance,
  type FundRequest,
  type VerifiedTransaction,
} from "./schemas";

export const REQUEST_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export interface ServiceCallRecord {
  operation: ServiceOperation;
  ok: boolean;
  kind?: ServiceErrorKind;
  httpStatus?: number;
  durationMs: number;
  at: Date;
}

export interface ServiceClientOptions {
  baseUrl: string;
  verifyBaseUrl: string;
  apiKey: string;
  /** Per HTTP attempt, from sending to the last byte of the answer. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Retries of a GET after the first attempt. */
  getRetries?: number;
  backoffBaseMs?: number;
  /** A longer Retry-After is not waited for: the call fails as rate_limited. */
  maxRetryAfterMs?: number;
  /** Once per logical call, with its final result; not called for identifiers refused before any call. */
  onCall?: (record: ServiceCallRecord) => void;
  fetchImpl?: typeof fetch;
  /** Before each HTTP attempt at the API host (not the verify host): throws to refuse it (the shared budget). */
  beforeApiCall?: (operation: ServiceOperation) => Promise<void>;
}

export interface CreateFundRequestInput {
  amount: number;
  tag: string;
  description: string;
  meta: Record<string, unknown>;
}

export interface ServiceClient {
  createFundRequest(input: CreateFundRequestInput): Promise<{ requestId: string }>;
  getFundRequest(requestId: string): Promise<FundRequest>;
  getBalance(): Promise<Balance>;
  verifyTransaction(uuid: string): Promise<VerifiedTransaction>;
}

const PEER_REQUESTS = "/api/v1/transfer/request/peer";
const RETRYABLE: ReadonlySet<ServiceErrorKind> = new Set(["rate_limited", "server_error", "unreachable", "timeout"]);

export function createServiceClient(opts: ServiceClientOptions): ServiceClient {
  const baseUrl = baseOf(opts.baseUrl, "baseUrl");
  const verifyBaseUrl = baseOf(opts.verifyBaseUrl, "verifyBaseUrl");
  const authorization = bearer(opts.apiKey);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxResponseBytes = opts.maxResponseBytes ?? 1024 * 1024;
  const getRetries = opts.getRetries ?? 3;
  const backoffBaseMs = opts.backoffBaseMs ?? 250;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 5000;
  const fetchImpl = opts.fetchImpl ?? fetch;

  async function once(operation: ServiceOperation, method: "GET" | "POST", url: string, body?: unknown) {
    if (opts.beforeApiCall && url.startsWith(`${baseUrl}/`)) await opts.beforeApiCall(operation);
    const headers: Record<string, string> = { Authorization: authorization, Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return exchange({ operation, method, url, headers, body: payload, timeoutMs, maxResponseBytes, fetchImpl });
  }

  async function withRetries<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof ServiceError) || !RETRYABLE.has(error.kind) || attempt >= getRetries) throw error;
        const wait = error.retryAfterMs ?? fullJitterDelay(backoffBaseMs, attempt);
        if (wait > maxRetryAfterMs) throw error;
        await sleep(wait);
      }
    }
  }

  async function observed<T>(operation: ServiceOperation, run: () => Promise<T>): Promise<T> {
    const at = new Date();
    const started = performance.now();
    const report = (record: Omit<ServiceCallRecord, "operation" | "durationMs" | "at">) => {
      try {
        opts.onCall?.({ operation, durationMs: Math.round(performance.now() - started), at, ...record });
      } catch {
        // A faulty observer must not turn a good call into a failure.
      }
    };
    try {
      const result = await run();
      report({ ok: true });
      return result;
    } catch (error) {
      if (error instanceof ServiceError) report({ ok: false, kind: error.kind, httpStatus: error.httpStatus });
      else report({ ok: false });
      throw error;
    }
  }

  return {
    createFundRequest(input) {
      if (!Number.isFinite(input.amount)) return Promise.reject(new RangeError("amount must be a finite number"));
      const body = { amount: input.amount, tag: input.tag, description: input.description, meta: input.meta };
      // Never retried: a second POST could create a second request.
      return observed("create", async () => {
        const res = await once("create", "POST", `${baseUrl}${PEER_REQUESTS}`, body);
        const data = envelopeData("create", res.httpStatus, res.json, createFundRequestEnvelopeSchema);
        return { requestId: data.request_id };
      });
    },

    getFundRequest(requestId) {
      if (!REQUEST_ID_RE.test(requestId)) return Promise.reject(new InvalidIdentifierError("fetch", "request_id"));
      const url = `${baseUrl}${PEER_REQUESTS}/${encodeURIComponent(requestId)}`;
      return observed("fetch", () =>
        withRetries(async () => {
          const res = await once("fetch", "GET", url);
          return envelopeData("fetch", res.httpStatus, res.json, fundRequestEnvelopeSchema);
        }),
      );
    },

    getBalance() {
      return observed("balance", () =>
        withRetries(async () => {
          const res = await once("balance", "GET", `${baseUrl}/api/v1/business/balance`);
          return envelopeData("balance", res.httpStatus, res.json, balanceEnvelopeSchema);
        }),
      );
    },

    verifyTransaction(uuid) {
      if (!UUID_RE.test(uuid)) return Promise.reject(new InvalidIdentifierError("verify", "transaction_uuid"));
      const url = `${verifyBaseUrl}/api/v1/transaction/${encodeURIComponent(uuid)}`;
      return observed("verify", () =>
        withRetries(async () => {
          const res = await once("verify", "GET", url);
          return envelopeData("verify", res.httpStatus, res.json, verifiedTransactionEnvelopeSchema);
        }),
      );
    },
  };
}

function baseOf(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`${name} must be an absolute http(s) URL`);
  // Joined by string so a base with a path prefix keeps it.
  return raw.trim().replace(/\/+$/, "");
}

function bearer(apiKey: string): string {
  const value = `Bearer ${apiKey}`;
  // Checked here so a bad key fails at start-up, and without echoing the key.
  if (apiKey === "" || !isValidHeaderValue(value)) throw new TypeError("apiKey is empty or not usable in an HTTP header");
  return value;
}

function isValidHeaderValue(value: string): boolean {
  try {
    new Headers({ authorization: value });
    return !/[\r\n]/.test(value);
  } catch {
    return false;
  }
}

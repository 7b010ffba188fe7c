import "server-only";
import { addBrand, hasBrand } from "@/lib/util/brand";

export type ServiceErrorKind = "unreachable" | "timeout" | "unauthorized" | "not_found" | "rate_limited" | "bad_response" | "rejected" | "server_error";

export type ServiceOperation = "create" | "fetch" | "balance" | "verify";

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  operation: ServiceOperation;
  /** For logs; never shown to users. */
  detail?: string;
  httpStatus?: number;
  serviceMessage?: string;
  retryAfterMs?: number;
  issues?: string[];
  outcomeUnknown?: boolean;
  /** Refused by our own shared budget before anything was sent (lib/service/budget.ts). */
  budgetRefused?: boolean;
  /** With budgetRefused: the limit (calls a minute) the budget keeps under, for the message. */
  budgetLimitPerMin?: number;
  cause?: unknown;
}

const SERVICE_MESSAGE_MAX = 300;

/** The service's own text, made safe to show: no control characters, bounded length. */
export function cleanServiceMessage(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const text = raw
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return undefined;
  return text.length > SERVICE_MESSAGE_MAX ? `${text.slice(0, SERVICE_MESSAGE_MAX - 1)}…` : text;
}

const WHAT: Record<ServiceOperation, string> = {
  create: "send the fund request",
  fetch: "read the fund request",
  balance: "read the wallet balances",
  verify: "verify the transaction",
};

// Checked by brand (lib/util/brand.ts): an error made by one bundle's copy of this class passes another's `instanceof`.
export class ServiceError extends Error {
  static readonly brand: string = "ServiceError";

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, this.brand);
  }

  readonly kind: ServiceErrorKind;
  readonly operation: ServiceOperation;
  readonly httpStatus?: number;
  readonly serviceMessage?: string;
  readonly retryAfterMs?: number;
  readonly issues?: string[];
  /** True when a create may have reached the service: look before sending it again. */
  readonly outcomeUnknown: boolean;
  /** Nothing was sent: the deployment's shared budget had no room (try again after retryAfterMs). */
  readonly budgetRefused: boolean;
  readonly budgetLimitPerMin?: number;

  constructor(init: ServiceErrorInit) {
    const status = init.httpStatus === undefined ? "" : ` (HTTP ${init.httpStatus})`;
    const detail = init.detail ? `: ${init.detail}` : "";
    super(`service ${init.operation} failed, ${init.kind}${status}${detail}`, { cause: init.cause });
    this.name = "ServiceError";
    this.kind = init.kind;
    this.operation = init.operation;
    this.httpStatus = init.httpStatus;
    this.serviceMessage = cleanServiceMessage(init.serviceMessage);
    this.retryAfterMs = init.retryAfterMs;
    this.issues = init.issues;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.budgetRefused = init.budgetRefused ?? false;
    this.budgetLimitPerMin = init.budgetLimitPerMin;
    addBrand(this, "ServiceError");
  }

  /** A sentence a finance user can act on: what happened and what to do. */
  get userMessage(): string {
    const text = this.whatHappened();
    return this.outcomeUnknown ? `${text} The fund request may still have reached the service: check its status before sending it again.` : text;
  }

  private whatHappened(): string {
    const said = this.serviceMessage;
    const retry = this.outcomeUnknown ? "" : " Try again in a minute.";
    switch (this.kind) {
      case "unreachable":
        return `The payment service could not be reached, so we could not ${WHAT[this.operation]}.${retry}`;
      case "timeout":
        return `The payment service did not answer in time, so we could not ${WHAT[this.operation]}.${retry}`;
      case "unauthorized":
        return "The payment service rejected our API key. Check SERVICE_API_KEY (a stray space or another environment's key).";
      case "not_found":
        return said
          ? `The payment service could not find it: ${sentence(said)} Check the details and try again.`
          : "The payment service answered \u201cnot found\u201d without explanation. Check SERVICE_BASE_URL and SERVICE_VERIFY_BASE_URL.";
      case "rate_limited":
        // Our own budget held the call back (nothing was sent): only a 429 from the service says it is rate-limiting.
        if (this.budgetRefused) {
          const limit =
            this.budgetLimitPerMin === undefined ? "its limit of calls a minute" : `the service's limit of ${this.budgetLimitPerMin} calls a minute`;
          return `Fundboard is keeping under ${limit}; try again in ${Math.max(1, Math.ceil((this.retryAfterMs ?? 1000) / 1000))} s.`;
        }
        return this.retryAfterMs === undefined
          ? "The payment service is rate-limiting us; try again in a minute."
          : `The payment service is rate-limiting us; try again in ${secondsText(this.retryAfterMs)}.`;
      case "bad_response":
        return `The payment service sent an answer we could not read, so we could not ${WHAT[this.operation]}.${
          this.outcomeUnknown ? "" : " Try again later; if it keeps happening, the service may have changed."
        }`;
      case "rejected":
        return said
          ? `The payment service refused: ${sentence(said)}`
          : `The payment service refused to ${WHAT[this.operation]}${this.httpStatus ? ` (HTTP ${this.httpStatus})` : ""}. Check the details and try again.`;
      case "server_error":
        return `The payment service had an internal error, so we could not ${WHAT[this.operation]}.${
          this.outcomeUnknown ? "" : " Try again in a few minutes."
        }`;
    }
  }
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function secondsText(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s === 1 ? "1 second" : `${s} seconds`;
}

/** Thrown before any call when a request id or transaction uuid is malformed; nothing reaches the service. */
export class InvalidIdentifierError extends ServiceError {
  static override readonly brand: string = "InvalidIdentifierError";

  readonly identifier: "request_id" | "transaction_uuid";

  constructor(operation: ServiceOperation, identifier: "request_id" | "transaction_uuid") {
    super({ kind: "rejected", operation, detail: `invalid ${identifier}` });
    this.name = "InvalidIdentifierError";
    this.identifier = identifier;
    addBrand(this, "InvalidIdentifierError");
  }

  override get userMessage(): string {
    return this.identifier === "request_id"
      ? "That request id is not valid: use 1 to 64 letters, digits, hyphens or underscores."
      : "That transaction id is not a valid uuid.";
  }
}

/**
 * True for a ServiceError (or subclass) made by any bundle's copy of this module: it checks the
 * brand, as `instanceof ServiceError` does. lib/http/api-error.ts (errorResponse) relies on it.
 */
export function isServiceError(error: unknown): error is ServiceError {
  return hasBrand(error, ServiceError.brand);
}

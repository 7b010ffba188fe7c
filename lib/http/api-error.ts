import { addBrand, hasBrand } from "@/lib/util/brand";
import "server-only";

import { errorCodeForStatus, isErrorCode, type ErrorCode } from "@/lib/client/http/error-codes";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { isServiceError, type ServiceError } from "@/lib/service/errors";

import { fail } from "./envelope";
import { statusForServiceError } from "./service-status";

/**
 * Errors become answers here, and only here: route handlers throw an ApiError (or let a
 * ServiceError propagate), withStaff catches whatever a handler throws and answers
 * `errorResponse(error)`. Every answer is the `{status: false, message, code, data}` envelope, `code` from the
 * closed list of lib/client/http/error-codes.ts (docs/architecture.md, "Error codes").
 */

// Checked by brand (lib/util/brand.ts), never the prototype chain: Next.js may load this module once per bundle.

export interface ApiErrorOptions {
  /** The envelope's `code`; the status's default (lib/client/http/error-codes.ts) when absent. */
  code?: ErrorCode;
  /** The envelope's `data`; `{}` when absent. */
  data?: object;
  /** Extra answer headers (Cache-Control: no-store is always set). */
  headers?: Record<string, string>;
  /** Sets Retry-After, in whole seconds (at least 1). */
  retryAfterMs?: number;
  cause?: unknown;
}

/** A failure answer a handler means to give: its status, a sentence for people, and optional data and headers. */
export class ApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return isApiError(value);
  }

  readonly status: number;
  readonly code: ErrorCode;
  readonly data?: object;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.status = status;
    this.code = options.code ?? errorCodeForStatus(status);
    this.data = options.data;
    const retryAfter = options.retryAfterMs === undefined ? undefined : { "Retry-After": retryAfterSeconds(options.retryAfterMs) };
    this.headers = options.headers || retryAfter ? { ...options.headers, ...retryAfter } : undefined;
    addBrand(this, "ApiError");
  }
}

/** True for an ApiError made by any copy of this module. */
export function isApiError(error: unknown): error is ApiError {
  return hasBrand(error, "ApiError");
}

function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

export const badRequest = (message: string, data?: object) => new ApiError(400, message, { data });
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string, data?: object) => new ApiError(404, message, { data });
/** 409; `code` narrows it (an idempotency key reused or still in flight). */
export const conflict = (message: string, data?: object, code: ErrorCode = "conflict") => new ApiError(409, message, { data, code });
export const tooManyRequests = (message: string, retryAfterMs: number) => new ApiError(429, message, { retryAfterMs });
export const tooLarge = (message: string) => new ApiError(413, message);
export const unsupportedMediaType = (message: string) => new ApiError(415, message);

export interface FieldErrors {
  fieldErrors: Record<string, string[] | undefined>;
  formErrors: string[];
}

export const unprocessable = (message: string, errors?: FieldErrors, code: ErrorCode = "validation_failed") =>
  new ApiError(422, message, { data: errors, code });
/** 422 naming one field, as the forms show it. */
export const invalidField = (message: string, field: string, reason: string) => unprocessable(message, { formErrors: [], fieldErrors: { [field]: [reason] } });

export const serviceUnavailable = (message: string, options: { data?: object; retryAfterMs?: number } = {}) => new ApiError(503, message, options);

/**
 * The answer for a failed service call: 502/503/504 (422 when the service refused the values), the
 * service error's sentence for people, `data` (default `{kind}`), and Retry-After on a 503 when the
 * service said how long to wait. Its code: `budget_exhausted` when our shared budget held the call back,
 * `validation_failed` for an id we refused before any call, `service_refused` for the service's own
 * refusal (the 422), else `service_unavailable` (docs/architecture.md, "Error codes").
 */
export function serviceFailure(error: ServiceError, data?: object): ApiError {
  const status = statusForServiceError(error);
  return new ApiError(status, error.userMessage, {
    code: serviceErrorCode(error, status),
    data: data ?? { kind: error.kind },
    retryAfterMs: status === 503 ? error.retryAfterMs : undefined,
    cause: error,
  });
}

function serviceErrorCode(error: ServiceError, status: number): ErrorCode {
  if (error.budgetRefused) return "budget_exhausted";
  if (hasBrand(error, "InvalidIdentifierError")) return "validation_failed";
  return status === 422 ? "service_refused" : errorCodeForStatus(status);
}

const INTERNAL_MESSAGE = "Something went wrong on our side; nothing was changed. Try again, and if it keeps happening, check the server log.";

/**
 * The one mapping of a thrown error to an answer. ApiError: its own status, code, message, data and
 * headers. ServiceError: serviceFailure. Anything else: a 500 with a
 * generic sentence and code `internal`, logged as one line by safeErrorSummary (never the raw error, its query
 * parameters or a stack), and nothing of it in the answer. `context` names the request in that line.
 */
export function errorResponse(error: unknown, context = "request"): Response {
  // Another bundle's copy (an older one, say) may carry no code: the status's default stands in.
  if (isApiError(error))
    return fail(error.status, error.message, error.data, error.headers, isErrorCode(error.code) ? error.code : errorCodeForStatus(error.status));
  if (isServiceError(error)) return errorResponse(serviceFailure(error));
  console.error(`[api] ${context} failed: ${safeErrorSummary(error)}`);
  return fail(500, INTERNAL_MESSAGE, undefined, undefined, "internal");
}

// The closed list of `code`s an error envelope carries (docs/architecture.md, "Error codes"): one file, read by the
// server's answers (lib/http/envelope.ts, lib/http/api-error.ts) and by the browser (lib/client/http/api-fetch.ts).

/** Every code an error answer may carry; nothing else ever appears in `code`. */
export const ERROR_CODES = [
  "validation_failed",
  "unauthenticated",
  "forbidden",
  "not_found",
  "conflict",
  "rate_limited",
  "budget_exhausted",
  "service_unavailable",
  "service_refused",
  "idempotency_key_missing",
  "idempotency_key_reused",
  "idempotency_key_in_flight",
  "payload_too_large",
  "method_not_allowed",
  "unsupported_media_type",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code an answer of each status carries unless whoever makes it picks a more precise one. */
export const DEFAULT_ERROR_CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: "validation_failed",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "validation_failed",
  429: "rate_limited",
  500: "internal",
  502: "service_unavailable",
  503: "service_unavailable",
  504: "service_unavailable",
};

/** The default code for `status`; a status outside the table is `internal` from 500 up, else `validation_failed`. */
export function errorCodeForStatus(status: number): ErrorCode {
  return DEFAULT_ERROR_CODE_BY_STATUS[status] ?? (status >= 500 ? "internal" : "validation_failed");
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

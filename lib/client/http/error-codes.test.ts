import { describe, expect, it } from "vitest";

import { DEFAULT_ERROR_CODE_BY_STATUS, ERROR_CODES, errorCodeForStatus, isErrorCode } from "./error-codes";

describe('error codes (docs/architecture.md, "Error codes")', () => {
  it("are exactly the closed list, each once", () => {
    expect([...ERROR_CODES]).toEqual([
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
    ]);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it("default each status to its code, from the list", () => {
    expect(DEFAULT_ERROR_CODE_BY_STATUS).toEqual({
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
    });
    for (const code of Object.values(DEFAULT_ERROR_CODE_BY_STATUS)) expect(ERROR_CODES).toContain(code);
    expect([errorCodeForStatus(418), errorCodeForStatus(501), errorCodeForStatus(404)]).toEqual(["validation_failed", "internal", "not_found"]);
  });

  it("isErrorCode admits the list and nothing else", () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const other of ["", "Not_Found", "unknown", 404, null, undefined, { code: "internal" }]) expect(isErrorCode(other)).toBe(false);
  });
});

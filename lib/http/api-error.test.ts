import { BRAND_KEY } from "@/lib/util/brand";
import { afterEach, describe, expect, it, vi } from "vitest";

import { ERROR_CODES, type ErrorCode } from "@/lib/client/http/error-codes";
import { InvalidIdentifierError, isServiceError, ServiceError, type ServiceErrorKind } from "@/lib/service/errors";

import {
  ApiError,
  badRequest,
  conflict,
  errorResponse,
  forbidden,
  isApiError,
  notFound,
  serviceFailure,
  serviceUnavailable,
  tooLarge,
  tooManyRequests,
  unauthorized,
  unprocessable,
  unsupportedMediaType,
} from "./api-error";

const INTERNAL = "Something went wrong on our side; nothing was changed. Try again, and if it keeps happening, check the server log.";

async function read(response: Response) {
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { status: boolean; message: string; code: ErrorCode; data: unknown },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("errorResponse: ApiError", () => {
  it.each([
    [badRequest("That request id is not valid."), 400, "validation_failed"],
    [unauthorized("You are not signed in. Sign in and try again."), 401, "unauthenticated"],
    [forbidden("Your role (viewer) may not do this."), 403, "forbidden"],
    [notFound("No staff account has that id."), 404, "not_found"],
    [conflict("This is the last active admin; make someone else an admin first."), 409, "conflict"],
    [tooLarge("The body is larger than 16384 bytes."), 413, "payload_too_large"],
    [unsupportedMediaType("Send the body as JSON with Content-Type: application/json."), 415, "unsupported_media_type"],
  ])("answers %s with its status, its message, its code and empty data", async (error, status, code) => {
    const { status: got, headers, body } = await read(errorResponse(error));
    expect(got).toBe(status);
    expect(body).toEqual({ status: false, message: error.message, code, data: {} });
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("retry-after")).toBeNull();
  });

  it("keeps the data it was given, field errors included", async () => {
    const fields = { fieldErrors: { email: ["This e-mail already has an account"] } };
    expect((await read(errorResponse(conflict("An account for a@example.com already exists.", fields)))).body).toEqual({
      status: false,
      message: "An account for a@example.com already exists.",
      code: "conflict",
      data: fields,
    });
    const invalid = { fieldErrors: { amount: ["Too small"] }, formErrors: [] };
    const answer = await read(errorResponse(unprocessable("Some fields are not valid; see fieldErrors.", invalid)));
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe("validation_failed");
    expect(answer.body.data).toEqual(invalid);
  });

  it.each([
    [new ApiError(405, "Use GET."), "method_not_allowed"],
    [tooManyRequests("Too many attempts.", 60_000), "rate_limited"],
    [new ApiError(500, "Ours."), "internal"],
    [new ApiError(502, "Theirs."), "service_unavailable"],
    [serviceUnavailable("Wait."), "service_unavailable"],
    [new ApiError(504, "Slow."), "service_unavailable"],
    [new ApiError(418, "Outside the table."), "validation_failed"],
    [new ApiError(599, "Outside the table."), "internal"],
  ] as const)("answers %s with its status's default code %s", async (error, code) => {
    const answer = await read(errorResponse(error));
    expect(answer.status).toBe(error.status);
    expect(answer.body.code).toBe(code);
  });

  it("keeps a more precise code a handler picked", async () => {
    const reused = await read(errorResponse(conflict("Key used for other values.", { id: "r1" }, "idempotency_key_reused")));
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({ status: false, message: "Key used for other values.", code: "idempotency_key_reused", data: { id: "r1" } });
    expect((await read(errorResponse(conflict("Still at the service.", undefined, "idempotency_key_in_flight")))).body.code).toBe("idempotency_key_in_flight");
    const missing = await read(
      errorResponse(unprocessable("No key.", { fieldErrors: { idempotencyKey: ["Missing"] }, formErrors: [] }, "idempotency_key_missing")),
    );
    expect([missing.status, missing.body.code]).toEqual([422, "idempotency_key_missing"]);
  });

  it("sets Retry-After in whole seconds, at least 1, and keeps its other headers", async () => {
    const answer = await read(errorResponse(serviceUnavailable("Wait.", { data: { kind: "paced" }, retryAfterMs: 2_100 })));
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("3");
    expect(answer.body.data).toEqual({ kind: "paced" });
    expect((await read(errorResponse(serviceUnavailable("Wait.", { retryAfterMs: 10 })))).headers.get("retry-after")).toBe("1");
    const custom = await read(errorResponse(new ApiError(429, "Slow down.", { headers: { "X-Why": "throttle" }, retryAfterMs: 5_000 })));
    expect(custom.headers.get("x-why")).toBe("throttle");
    expect(custom.headers.get("retry-after")).toBe("5");
    expect(custom.headers.get("cache-control")).toBe("no-store");
  });

  it("does not log what a handler meant to answer", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    errorResponse(notFound("No such request."));
    expect(log).not.toHaveBeenCalled();
  });
});

describe("errorResponse: ServiceError", () => {
  const cases: [ServiceErrorKind, number, ErrorCode][] = [
    ["unreachable", 502, "service_unavailable"],
    ["timeout", 504, "service_unavailable"],
    ["unauthorized", 502, "service_unavailable"],
    ["rate_limited", 503, "service_unavailable"],
    ["bad_response", 502, "service_unavailable"],
    ["server_error", 502, "service_unavailable"],
    ["not_found", 422, "service_refused"],
    ["rejected", 422, "service_refused"],
  ];

  it.each(cases)("answers %s with %i, code %s, the service error's sentence and data {kind}", async (kind, status, code) => {
    const error = new ServiceError({ kind, operation: "balance", detail: "secret detail for the log", serviceMessage: "refused" });
    const answer = await read(errorResponse(error));
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ status: false, message: error.userMessage, code, data: { kind } });
    expect(answer.body.message).not.toContain("secret detail");
    expect(answer.headers.get("retry-after")).toBeNull();
  });

  it("says Retry-After on a 503 when the service said how long to wait", async () => {
    const answer = await read(errorResponse(new ServiceError({ kind: "rate_limited", operation: "fetch", retryAfterMs: 4_500 })));
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(answer.body.message).toMatch(/try again in 5 seconds/);
    // Not on other statuses, even if the service sent one.
    expect(
      (await read(errorResponse(new ServiceError({ kind: "server_error", operation: "fetch", retryAfterMs: 4_500 })))).headers.get("retry-after"),
    ).toBeNull();
  });

  it("answers an invalid identifier with its own sentence", async () => {
    const answer = await read(errorResponse(new InvalidIdentifierError("fetch", "request_id")));
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/request id is not valid/);
    // Nothing reached the service: the id is ours to refuse, not the service's.
    expect(answer.body.code).toBe("validation_failed");
  });

  it("serviceFailure carries other data when a route has the record to show", async () => {
    const error = new ServiceError({ kind: "timeout", operation: "create", outcomeUnknown: true });
    const answer = await read(errorResponse(serviceFailure(error, { reference: "r1", status: "unknown" })));
    expect(answer.status).toBe(504);
    expect(answer.body).toEqual({ status: false, message: error.userMessage, code: "service_unavailable", data: { reference: "r1", status: "unknown" } });
  });

  it("answers our own budget's refusal with 503, the limit in its message and Retry-After", async () => {
    const error = new ServiceError({ kind: "rate_limited", operation: "fetch", retryAfterMs: 1_200, budgetRefused: true, budgetLimitPerMin: 90 });
    const answer = await read(errorResponse(error));
    expect(answer.status).toBe(503);
    expect(answer.body.message).toBe("Fundboard is keeping under the service's limit of 90 calls a minute; try again in 2 s.");
    expect(answer.body.code).toBe("budget_exhausted");
    expect(answer.headers.get("retry-after")).toBe("2");
  });
});

describe("errors from another bundle's copy of the class", () => {
  it("recognises a ServiceError-like object carrying the brand", async () => {
    const foreign = Object.assign(new Error("service fetch failed, rate_limited"), {
      [BRAND_KEY]: ["ServiceError"],
      kind: "rate_limited",
      userMessage: "The payment service is rate-limiting us; try again in 3 seconds.",
      retryAfterMs: 3_000,
      outcomeUnknown: false,
    });
    expect(isServiceError(foreign)).toBe(true);
    const answer = await read(errorResponse(foreign));
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: false, message: foreign.userMessage, code: "service_unavailable", data: { kind: "rate_limited" } });
    expect(answer.headers.get("retry-after")).toBe("3");
  });

  it("recognises an ApiError-like object carrying the brand, and nothing without it", async () => {
    const foreign = Object.assign(new Error("No such request."), { [BRAND_KEY]: ["ApiError"], status: 404, data: { id: "x" } });
    expect(isApiError(foreign)).toBe(true);
    expect(foreign instanceof ApiError).toBe(true);
    // Made by a copy without codes: its status's default stands in.
    expect((await read(errorResponse(foreign))).body).toEqual({ status: false, message: "No such request.", code: "not_found", data: { id: "x" } });

    const lookalike = Object.assign(new Error("no brand"), { name: "ApiError", status: 404 });
    expect(isApiError(lookalike)).toBe(false);
    expect(lookalike instanceof ApiError).toBe(false);
    expect(isServiceError(Object.assign(new Error("no brand"), { name: "ServiceError", kind: "timeout" }))).toBe(false);
    expect(isApiError(null)).toBe(false);
    expect(isServiceError(undefined)).toBe(false);
  });
});

describe("errorResponse: anything else", () => {
  it("answers 500 with the generic sentence, nothing of the error, and logs one line without parameters", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const driver = Object.assign(new Error('duplicate key value violates unique constraint "staff_email_key"'), { code: "23505" });
    const error = new Error("Failed query: insert into staff (email, password_hash) values ($1, $2)\nparams: alice@example.com,$argon2id$secret", {
      cause: driver,
    });
    const answer = await read(errorResponse(error, "POST /api/staff"));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ status: false, message: INTERNAL, code: "internal", data: {} });
    const text = JSON.stringify(answer.body);
    for (const leak of ["alice@example.com", "argon2id", "params", "Failed query", "stack", "at ", "staff_email_key"]) expect(text).not.toContain(leak);

    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0]?.[0]);
    expect(line).toBe('[api] POST /api/staff failed: Error [23505]: duplicate key value violates unique constraint "staff_email_key"');
    expect(log.mock.calls[0]).toHaveLength(1);
  });

  it("logs a wrapper's message without its parameters when there is no cause, and non-errors as such", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const answer = await read(errorResponse(new Error("Failed query: select * from staff where email = $1\nparams: bob@example.com")));
    expect(answer.status).toBe(500);
    expect(answer.body.code).toBe("internal");
    expect(ERROR_CODES).toContain(answer.body.code);
    expect(log.mock.calls[0]?.[0]).toBe("[api] request failed: Error: query failed");
    errorResponse({ password: "hunter2" });
    expect(log.mock.calls[1]?.[0]).toBe("[api] request failed: unknown error");
    for (const call of log.mock.calls) expect(String(call[0])).not.toMatch(/bob@example\.com|hunter2|\n/);
  });
});

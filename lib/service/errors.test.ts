import { BRAND_KEY } from "@/lib/util/brand";
import "server-only";
import { describe, expect, it } from "vitest";
import { cleanServiceMessage, InvalidIdentifierError, ServiceError, type ServiceErrorKind } from "./errors";

const KINDS: ServiceErrorKind[] = ["unreachable", "timeout", "unauthorized", "not_found", "rate_limited", "bad_response", "rejected", "server_error"];

describe("ServiceError.userMessage", () => {
  it.each(KINDS)("%s gives a plain sentence without internals", (kind) => {
    const error = new ServiceError({
      kind,
      operation: "balance",
      httpStatus: 500,
      detail: "ECONNREFUSED at Socket.connect",
      issues: ["data.wallets.0.balance: expected number, received string"],
      cause: new Error("boom"),
    });
    expect(error.userMessage).toMatch(/^The payment service .+\.$/);
    expect(error.userMessage).not.toMatch(/ECONNREFUSED|Socket|boom|data\.wallets|at \w+ \(/);
    expect(error.message).toContain(kind);
  });

  it("tells what to do for each common case", () => {
    const make = (kind: ServiceErrorKind, extra: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}) =>
      new ServiceError({ kind, operation: "fetch", ...extra }).userMessage;
    expect(make("unauthorized")).toBe("The payment service rejected our API key. Check SERVICE_API_KEY (a stray space or another environment's key).");
    expect(make("unreachable")).toBe("The payment service could not be reached, so we could not read the fund request. Try again in a minute.");
    expect(make("rate_limited", { retryAfterMs: 30_000 })).toBe("The payment service is rate-limiting us; try again in 30 seconds.");
    expect(make("rate_limited", { retryAfterMs: 200 })).toBe("The payment service is rate-limiting us; try again in 1 second.");
    expect(make("rate_limited")).toBe("The payment service is rate-limiting us; try again in a minute.");
    expect(make("rejected", { httpStatus: 409, serviceMessage: "Request already accepted" })).toBe("The payment service refused: Request already accepted.");
    expect(make("rejected", { httpStatus: 400 })).toMatch(/HTTP 400/);
    expect(make("not_found", { serviceMessage: "No fund request with id 7" })).toMatch(/No fund request with id 7\. Check/);
  });

  it("tells the dashboard's own budget refusal apart from the service's 429", () => {
    const own = new ServiceError({ kind: "rate_limited", operation: "create", retryAfterMs: 11_200, budgetRefused: true, budgetLimitPerMin: 90 });
    expect(own.userMessage).toBe("Fundboard is keeping under the service's limit of 90 calls a minute; try again in 12 s.");
    const theirs = new ServiceError({ kind: "rate_limited", operation: "create", httpStatus: 429, retryAfterMs: 11_200 });
    expect(theirs.userMessage).toBe("The payment service is rate-limiting us; try again in 12 seconds.");
  });

  it("warns that a create's outcome is unknown", () => {
    const error = new ServiceError({ kind: "timeout", operation: "create", outcomeUnknown: true });
    expect(error.userMessage).toMatch(/did not answer in time/);
    expect(error.userMessage).toMatch(/may still have reached the service: check its status before sending it again\.$/);
    expect(error.userMessage).not.toMatch(/Try again in a minute/);
  });

  it("cleans the service's message before showing it", () => {
    const error = new ServiceError({ kind: "rejected", operation: "create", serviceMessage: "bad\u0000 tag\r\n\tnow " + "x".repeat(400) });
    expect(error.serviceMessage).toMatch(/^bad tag now x+…$/);
    expect(error.serviceMessage?.length).toBe(300);
    expect(cleanServiceMessage("  \n ")).toBeUndefined();
  });

  it("is an Error whose name and kind survive", () => {
    const error = new ServiceError({ kind: "timeout", operation: "verify", httpStatus: 200 });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ServiceError");
    expect(error.message).toBe("service verify failed, timeout (HTTP 200)");
  });
});

describe("InvalidIdentifierError", () => {
  it("is a rejected ServiceError with its own message", () => {
    const error = new InvalidIdentifierError("fetch", "request_id");
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.kind).toBe("rejected");
    expect(error.httpStatus).toBeUndefined();
    expect(error.userMessage).toMatch(/request id is not valid/);
    expect(new InvalidIdentifierError("verify", "transaction_uuid").userMessage).toMatch(/not a valid uuid/);
  });
});

describe("instanceof across bundles", () => {
  it("recognises an error made by another copy of the class (Next.js bundles modules per entry)", () => {
    const foreign = Object.assign(new Error("x"), { [BRAND_KEY]: ["ServiceError"] });
    expect(foreign instanceof ServiceError).toBe(true);
    expect(foreign instanceof InvalidIdentifierError).toBe(false);
    expect(new InvalidIdentifierError("fetch", "request_id") instanceof ServiceError).toBe(true);
    expect(new InvalidIdentifierError("fetch", "request_id") instanceof InvalidIdentifierError).toBe(true);
    expect(new ServiceError({ kind: "timeout", operation: "balance" }) instanceof InvalidIdentifierError).toBe(false);
    expect(new Error("plain") instanceof ServiceError).toBe(false);
  });
});

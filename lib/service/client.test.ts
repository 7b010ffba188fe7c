import "server-only";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createServiceClient, type ServiceCallRecord, type ServiceClientOptions } from "./client";
import { InvalidIdentifierError, ServiceError } from "./errors";
import { peerTransferPayloadSchema } from "./schemas";
import { sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { closedPortUrl } from "@/tests/support/test-http";

// Against the sandbox over real HTTP: the service's behaviour, its faults and its call counts.

const BALANCE = "GET /api/v1/business/balance";
const CREATE = "POST /api/v1/transfer/request/peer";
const FETCH = "GET /api/v1/transfer/request/peer/:request_id";
const VERIFY = "GET /api/v1/transaction/:transaction_uuid";

let sb: Sandbox;
let control: SandboxControl;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, apiKey: "test-key", autoDelayMs: 50 });
  control = sandboxControl(sb);
});

afterAll(async () => {
  await sb.close();
});

beforeEach(async () => {
  await control.reset();
});

function client(overrides: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: sb.apiUrl,
    verifyBaseUrl: sb.verifyUrl,
    apiKey: sb.apiKey,
    timeoutMs: 2000,
    backoffBaseMs: 5,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => new Error("expected the call to fail"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

const request = (tag: string) => ({
  amount: 1500.5,
  tag,
  description: "Invoice 42",
  meta: { notificationUrl: "http://127.0.0.1:9/hooks", transactionReference: "ref-1", extra: "kept" },
});

describe("happy paths", () => {
  it("creates a fund request and fetches it, request_id a string both times", async () => {
    const svc = client();
    const tag = `user.${Date.now()}`;
    const created = await svc.createFundRequest(request(tag));
    expect(typeof created.requestId).toBe("string");
    expect(created.requestId).toMatch(/^\d+$/);

    const fetched = await svc.getFundRequest(created.requestId);
    expect(fetched.request_id).toBe(created.requestId);
    expect(fetched.request_status).toBe("pending");
    expect(fetched.amount).toBe(1500.5);
    expect(fetched.description).toBe("Invoice 42");
    expect(fetched.requested_sent_to.tag).toBe(tag);
    expect(typeof fetched.requested_by.name).toBe("string");
    expect(fetched.meta).toMatchObject({ notificationUrl: "http://127.0.0.1:9/hooks", transactionReference: "ref-1", extra: "kept" });
    expect(Number.isNaN(Date.parse(fetched.created_at))).toBe(false);
    expect(await control.calls()).toEqual({ [CREATE]: 1, [FETCH]: 1 });
  });

  it("sees accept.auto and decline.auto move on from pending", async () => {
    const svc = client();
    const accepted = await svc.createFundRequest(request("accept.auto"));
    const declined = await svc.createFundRequest(request("decline.auto"));
    await expect.poll(async () => (await svc.getFundRequest(accepted.requestId)).request_status, { timeout: 5000, interval: 20 }).toBe("accepted");
    await expect.poll(async () => (await svc.getFundRequest(declined.requestId)).request_status, { timeout: 5000, interval: 20 }).toBe("declined");
  });

  it("reads the wallet balances", async () => {
    const balance = await client().getBalance();
    expect(typeof balance.total_balance).toBe("number");
    expect(balance.wallets.length).toBeGreaterThanOrEqual(3);
    expect(balance.wallets.filter((w) => w.main_wallet)).toHaveLength(1);
    for (const w of balance.wallets) {
      expect(typeof w.name).toBe("string");
      expect(typeof w.balance).toBe("number");
      expect(w.formatted_balance).toMatch(/^[A-Z]{3} [\d,]+\.\d{2}$/);
    }
    expect(await control.calls()).toEqual({ [BALANCE]: 1 });
  });

  it("verifies the transaction an accepted request produced, and its webhook payload fits the schema", async () => {
    const svc = client();
    const { requestId } = await svc.createFundRequest(request(`payer.${Date.now()}`));
    const transaction = await control.acceptForPayment(requestId);
    const payload = peerTransferPayloadSchema.parse(transaction);
    expect(payload.type).toBe("peer-transfer.success");

    const verified = await svc.verifyTransaction(payload.uuid);
    expect(verified.uuid).toBe(payload.uuid);
    expect(verified.amount).toBe(payload.amount);
    expect(verified.settled_amount).toBe(payload.settled_amount);
    expect(typeof verified.status).toBe("string");
    expect(verified.currency).toBe("NGN");
    expect((await control.calls())[VERIFY]).toBe(1);
  });
});

describe("error kinds", () => {
  it("unauthorized: a wrong key gets 401, not retried, with an actionable message", async () => {
    const error = await failure(client({ apiKey: "wrong-key" }).getBalance());
    expect(error.kind).toBe("unauthorized");
    expect(error.httpStatus).toBe(401);
    expect(error.userMessage).toContain("SERVICE_API_KEY");
    expect(error.userMessage).not.toContain("wrong-key");
    expect(await control.calls()).toEqual({ [BALANCE]: 1 });
  });

  it("not_found: unknown request and unknown transaction, with the service's message, not retried", async () => {
    const svc = client();
    const missing = await failure(svc.getFundRequest("987654321"));
    expect(missing.kind).toBe("not_found");
    expect(missing.httpStatus).toBe(404);
    expect(missing.serviceMessage).toContain("987654321");
    expect(missing.userMessage).toContain("987654321");

    const unknownTx = await failure(svc.verifyTransaction(randomUUID()));
    expect(unknownTx.kind).toBe("not_found");
    expect(unknownTx.operation).toBe("verify");
    expect(await control.calls()).toEqual({ [FETCH]: 1, [VERIFY]: 1 });
  });

  it("not_found on create for an unknown user tag; the outcome is known", async () => {
    const error = await failure(client().createFundRequest(request("missing.person")));
    expect(error.kind).toBe("not_found");
    expect(error.operation).toBe("create");
    expect(error.serviceMessage).toContain("missing.person");
    expect(error.outcomeUnknown).toBe(false);
  });

  it("rejected: a 400 envelope carries the service's own message to the user", async () => {
    const error = await failure(client().createFundRequest(request("x")));
    expect(error.kind).toBe("rejected");
    expect(error.httpStatus).toBe(400);
    expect(error.serviceMessage).toMatch(/tag/);
    expect(error.userMessage).toContain(error.serviceMessage);
    expect(await control.calls()).toEqual({ [CREATE]: 1 });
  });

  it("server_error: a GET gives up after the first try and getRetries retries", async () => {
    await control.fault("/api/v1/business/balance", "500");
    const error = await failure(client({ getRetries: 3 }).getBalance());
    expect(error.kind).toBe("server_error");
    expect(error.httpStatus).toBe(500);
    expect(await control.calls()).toEqual({ [BALANCE]: 4 });
  });

  it("rate_limited: a Retry-After longer than maxRetryAfterMs is not waited for", async () => {
    await control.fault("/api/v1/business/balance", "429");
    const error = await failure(client({ maxRetryAfterMs: 500 }).getBalance());
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBe(1000);
    expect(error.userMessage).toContain("try again in 1 second");
    expect(await control.calls()).toEqual({ [BALANCE]: 1 });
  });

  it("timeout: a service that never answers fails within timeoutMs per attempt", async () => {
    await control.fault("/api/v1/business/balance", "timeout");
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 300, getRetries: 0 }).getBalance());
    expect(error.kind).toBe("timeout");
    // The fault never answers: without the timeout the call would hang to the test's limit; 4 s leaves a busy machine room.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(error.userMessage).toMatch(/did not answer in time/);
  });

  it("timeout on create: never retried and its outcome is unknown", async () => {
    await control.fault("/api/v1/transfer/request/peer", "timeout");
    const error = await failure(client({ timeoutMs: 300 }).createFundRequest(request(`slow.${Date.now()}`)));
    expect(error.kind).toBe("timeout");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.userMessage).toMatch(/check its status before sending it again/);
    expect(await control.calls()).toEqual({ [CREATE]: 1 });
  });

  it("bad_response: a truncated JSON 200 is not retried", async () => {
    await control.fault("/api/v1/business/balance", "malformed");
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues).toEqual(["(body): not valid JSON"]);
    expect(await control.calls()).toEqual({ [BALANCE]: 1 });
  });

  it("unreachable: nothing listening, retried, and a refused create is known not to have happened", async () => {
    const dead = await closedPortUrl();
    const records: ServiceCallRecord[] = [];
    const svc = client({ baseUrl: dead, getRetries: 2, onCall: (r) => records.push(r) });
    const error = await failure(svc.getBalance());
    expect(error.kind).toBe("unreachable");
    expect(error.userMessage).toBe("The payment service could not be reached, so we could not read the wallet balances. Try again in a minute.");
    const createError = await failure(svc.createFundRequest(request("someone")));
    expect(createError.kind).toBe("unreachable");
    expect(createError.outcomeUnknown).toBe(false);
    expect(records.map((r) => [r.operation, r.ok, r.kind])).toEqual([
      ["balance", false, "unreachable"],
      ["create", false, "unreachable"],
    ]);
  });
});

describe("retries", () => {
  it("a GET that fails twice with 500 succeeds on the third call", async () => {
    await control.fault("/api/v1/business/balance", "500", 2);
    const balance = await client().getBalance();
    expect(balance.wallets.length).toBeGreaterThan(0);
    expect(await control.calls()).toEqual({ [BALANCE]: 3 });
  });

  it("fetch and verify are retried the same way", async () => {
    const svc = client();
    const { requestId } = await svc.createFundRequest(request(`retry.${Date.now()}`));
    await control.fault("/api/v1/transfer/request/peer/", "500", 1);
    await expect(svc.getFundRequest(requestId)).resolves.toMatchObject({ request_id: requestId });
    await control.fault("/api/v1/transaction/", "timeout", 1);
    const error = await failure(client({ timeoutMs: 300 }).verifyTransaction(randomUUID()));
    expect(error.kind).toBe("not_found");
    expect(await control.calls()).toEqual({ [CREATE]: 1, [FETCH]: 2, [VERIFY]: 2 });
  });

  it("a create is never retried, even on 500, and its outcome is unknown", async () => {
    await control.fault("/api/v1/transfer/request/peer", "500", 1);
    const error = await failure(client({ getRetries: 3 }).createFundRequest(request(`once.${Date.now()}`)));
    expect(error.kind).toBe("server_error");
    expect(error.outcomeUnknown).toBe(true);
    expect(await control.calls()).toEqual({ [CREATE]: 1 });
  });

  it("a create is not retried on 429 either", async () => {
    await control.fault("/api/v1/transfer/request/peer", "429", 1);
    const error = await failure(client().createFundRequest(request(`once.${Date.now()}`)));
    expect(error.kind).toBe("rate_limited");
    expect(await control.calls()).toEqual({ [CREATE]: 1 });
  });

  it("honours Retry-After: waits the second the service asks for, then succeeds", async () => {
    await control.fault("/api/v1/business/balance", "429", 1);
    const started = Date.now();
    await client({ backoffBaseMs: 1 }).getBalance();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(await control.calls()).toEqual({ [BALANCE]: 2 });
  });
});

describe("identifiers are checked before any call", () => {
  const badIds = ["", "../business/balance", "1/2", "1?x=1", "1%2F2", "a b", "x".repeat(65), "١٢٣"];

  it.each(badIds)("request id %j is refused with no call made", async (id) => {
    const onCall: ServiceCallRecord[] = [];
    const error = await failure(client({ onCall: (r) => onCall.push(r) }).getFundRequest(id));
    expect(error).toBeInstanceOf(InvalidIdentifierError);
    expect(error.kind).toBe("rejected");
    expect(error.userMessage).toMatch(/request id is not valid/);
    expect(onCall).toEqual([]);
    expect(await control.calls()).toEqual({});
  });

  it.each(["not-a-uuid", "", `${randomUUID()}/x`, `${randomUUID()}0`, "../../api/v1/business/balance"])(
    "transaction uuid %j is refused with no call made",
    async (uuid) => {
      const error = await failure(client().verifyTransaction(uuid));
      expect(error).toBeInstanceOf(InvalidIdentifierError);
      expect(error.kind).toBe("rejected");
      expect(await control.calls()).toEqual({});
    },
  );

  it("accepts the longest valid request id (64 characters) and asks the service", async () => {
    const error = await failure(client().getFundRequest("a".repeat(64)));
    expect(error.kind).toBe("not_found");
    expect(await control.calls()).toEqual({ [FETCH]: 1 });
  });
});

describe("onCall", () => {
  it("fires once per logical call with the final result, retries included", async () => {
    const records: ServiceCallRecord[] = [];
    const svc = client({ onCall: (r) => records.push(r) });
    await control.fault("/api/v1/business/balance", "500", 2);
    await svc.getBalance();
    await control.fault("/api/v1/business/balance", "500");
    await failure(svc.getBalance());

    expect(records).toHaveLength(2);
    const [first, second] = records;
    expect(first).toMatchObject({ operation: "balance", ok: true });
    expect(first?.kind).toBeUndefined();
    expect(second).toMatchObject({ operation: "balance", ok: false, kind: "server_error", httpStatus: 500 });
    for (const r of records) {
      expect(r.at).toBeInstanceOf(Date);
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(await control.calls()).toEqual({ [BALANCE]: 7 });
  });

  it("a throwing observer does not break the call", async () => {
    const svc = client({
      onCall: () => {
        throw new Error("observer bug");
      },
    });
    await expect(svc.getBalance()).resolves.toHaveProperty("wallets");
  });
});

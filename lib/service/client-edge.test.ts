import "server-only";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient, type ServiceClientOptions } from "./client";
import { ServiceError } from "./errors";
import { sendJson, startTestServer, type TestServer } from "@/tests/support/test-http";

// Answers the sandbox cannot give, from a local real HTTP server.

const BALANCE_PATH = "/api/v1/business/balance";
const okBalance = {
  status: true,
  message: "Balance retrieved",
  data: { total_balance: 100.5, wallets: [{ name: "Main", main_wallet: true, balance: 100.5, formatted_balance: "NGN 1.01" }] },
};

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  other = await startTestServer();
});

afterAll(async () => {
  await server.close();
  await other.close();
});

function client(overrides: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: server.url,
    verifyBaseUrl: server.url,
    apiKey: "k-123",
    timeoutMs: 1000,
    backoffBaseMs: 1,
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

describe("request shape", () => {
  it("sends the bearer key, Accept and a JSON body on create; reads a numeric request_id as a string", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: true, message: "Fund request sent", data: { request_id: 73 } }));
    const input = { amount: 12.5, tag: "ada", description: "Rent", meta: { transactionReference: "r-9" } };
    await expect(client().createFundRequest(input)).resolves.toEqual({ requestId: "73" });
    const [seen] = server.seen;
    expect(seen?.method).toBe("POST");
    expect(seen?.path).toBe("/api/v1/transfer/request/peer");
    expect(seen?.headers.authorization).toBe("Bearer k-123");
    expect(seen?.headers.accept).toBe("application/json");
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen?.body ?? "")).toEqual(input);
  });

  it("keeps a path prefix in the base URL and drops a trailing slash", async () => {
    server.handle((_req, res) => sendJson(res, 200, okBalance));
    await client({ baseUrl: `${server.url}/prefix/` }).getBalance();
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /prefix${BALANCE_PATH}`]);
  });

  it("reads a fetched request_id sent as a number as a string too", async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, {
        status: true,
        message: "ok",
        data: {
          request_id: 5,
          description: "d",
          amount: 1,
          request_status: "accepted",
          requested_by: { name: "Biz", tag: "biz" },
          requested_sent_to: { name: "Ada", tag: "ada" },
          meta: {},
          created_at: "2024-01-01T00:00:00.000Z",
          updated_at: "2024-01-01T00:00:00.000Z",
        },
      }),
    );
    const fetched = await client().getFundRequest("5");
    expect(fetched.request_id).toBe("5");
    expect(server.seen[0]?.path).toBe("/api/v1/transfer/request/peer/5");
  });

  it("refuses an API key that cannot be sent as a header, without echoing it", () => {
    expect(() => client({ apiKey: "secret\nvalue" })).toThrow(TypeError);
    expect(() => client({ apiKey: "secret\nvalue" })).not.toThrow(/secret/);
    expect(() => client({ apiKey: "" })).toThrow(TypeError);
    expect(() => client({ baseUrl: "ftp://example.com" })).toThrow(/baseUrl/);
  });
});

describe("redirects", () => {
  it("are a bad_response and never followed, on the same host or another", async () => {
    server.handle((_req, res) => res.writeHead(302, { location: `${other.url}/target` }).end());
    other.handle((_req, res) => sendJson(res, 200, okBalance));
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.httpStatus).toBe(302);
    expect(other.count("/target")).toBe(0);
    // A bad_response is not retried either.
    expect(server.count(BALANCE_PATH)).toBe(1);

    server.handle((_req, res) => res.writeHead(307, { location: "/target" }).end());
    const again = await failure(client().createFundRequest({ amount: 1, tag: "ada", description: "", meta: {} }));
    expect(again.kind).toBe("bad_response");
    expect(server.count("/target")).toBe(0);
  });
});

describe("size cap", () => {
  it("refuses a declared oversize body", async () => {
    const big = JSON.stringify({ ...okBalance, message: "x".repeat(5000) });
    server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-length": String(big.length) }).end(big));
    const error = await failure(client({ maxResponseBytes: 1024 }).getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues?.[0]).toMatch(/response too large/);
  });

  it("stops reading a streamed body past the cap and drops the connection", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"status":true,"message":"');
      const chunk = "x".repeat(16 * 1024);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on("close", () => {
        clearInterval(timer);
        closed();
      });
    });
    const error = await failure(client({ maxResponseBytes: 64 * 1024, timeoutMs: 5000 }).getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues?.[0]).toMatch(/response too large/);
    await connectionClosed;
  });

  it("by default caps a response at 1 MiB: one byte more is a bad_response, exactly 1 MiB is read", async () => {
    const MIB = 1024 * 1024;
    const padded = (bytes: number) => {
      const bare = JSON.stringify({ ...okBalance, message: "" });
      return JSON.stringify({ ...okBalance, message: "x".repeat(bytes - Buffer.byteLength(bare)) });
    };
    server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(padded(MIB + 1)));
    const error = await failure(client({ getRetries: 0 }).getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues?.[0]).toMatch(/response too large/);
    server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(padded(MIB)));
    await expect(client().getBalance()).resolves.toEqual(okBalance.data);
  });

  it("accepts a body right at the cap", async () => {
    const body = JSON.stringify(okBalance);
    server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
    await expect(client({ maxResponseBytes: Buffer.byteLength(body) }).getBalance()).resolves.toEqual(okBalance.data);
  });
});

describe("bodies that do not fit", () => {
  it("a wrong-shaped JSON 200 is a bad_response naming the paths, not retried", async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, {
        status: true,
        message: "ok",
        data: { total_balance: 1, wallets: [{ name: "Main", main_wallet: true, balance: "12", formatted_balance: "NGN 0.12" }] },
      }),
    );
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues).toEqual(["data.wallets.0.balance: expected number, received string"]);
    expect(error.userMessage).not.toMatch(/data\.wallets/);
    expect(server.count(BALANCE_PATH)).toBe(1);
  });

  it("status:false on a 200 is the service refusing, with its message", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: false, message: "Insufficient permissions for this wallet", data: {} }));
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("rejected");
    expect(error.httpStatus).toBe(200);
    expect(error.userMessage).toBe("The payment service refused: Insufficient permissions for this wallet.");
  });

  it("a body that is not UTF-8 is a bad_response", async () => {
    server.handle((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])));
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("bad_response");
    expect(error.issues).toEqual(["(body): not valid UTF-8"]);
  });

  it("a create answered 200 with an unreadable body may still have happened", async () => {
    server.handle((_req, res) => sendJson(res, 200, { status: true, message: "ok", data: {} }));
    const error = await failure(client().createFundRequest({ amount: 1, tag: "ada", description: "", meta: {} }));
    expect(error.kind).toBe("bad_response");
    expect(error.outcomeUnknown).toBe(true);
    expect(error.issues).toEqual(["data.request_id: expected a non-empty string or a whole number"]);
  });
});

describe("status mapping", () => {
  it.each([
    [403, "unauthorized"],
    [404, "not_found"],
    [409, "rejected"],
    [422, "rejected"],
    [502, "server_error"],
  ] as const)("HTTP %i is %s", async (status, kind) => {
    server.handle((_req, res) => sendJson(res, status, { status: false, message: `said ${status}`, data: {} }));
    const error = await failure(client({ getRetries: 1 }).getFundRequest("12"));
    expect(error.kind).toBe(kind);
    expect(error.httpStatus).toBe(status);
    expect(error.serviceMessage).toBe(`said ${status}`);
    // Only 5xx is retried.
    expect(server.count("/api/v1/transfer/request/peer/12")).toBe(kind === "server_error" ? 2 : 1);
  });

  it("an error status without an envelope still maps, and a 404 then points at the base URL", async () => {
    server.handle((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>"));
    const error = await failure(client().getBalance());
    expect(error.kind).toBe("not_found");
    expect(error.serviceMessage).toBeUndefined();
    expect(error.userMessage).toMatch(/SERVICE_BASE_URL/);
  });

  it("a connection dropped mid-body is unreachable and retried", async () => {
    server.handle((req, res) => {
      if (server.count(BALANCE_PATH) === 1) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
        res.write('{"status":true');
        setImmediate(() => req.socket.destroy());
        return;
      }
      sendJson(res, 200, okBalance);
    });
    await expect(client().getBalance()).resolves.toEqual(okBalance.data);
    expect(server.count(BALANCE_PATH)).toBe(2);
  });
});

describe("timeout covers the body", () => {
  it("a body that stalls after the headers times out", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"status":true,');
    });
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 200, getRetries: 0 }).getBalance());
    expect(error.kind).toBe("timeout");
    // Without the timeout the stalled body would hang to the test's 5 s limit; 4 s leaves a busy machine room.
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("Retry-After as an HTTP date", () => {
  it("is read as a delay and refused when longer than maxRetryAfterMs", async () => {
    server.handle((_req, res) =>
      sendJson(res, 429, { status: false, message: "slow down", data: {} }, { "retry-after": new Date(Date.now() + 3000).toUTCString() }),
    );
    const error = await failure(client({ maxRetryAfterMs: 500 }).getBalance());
    expect(error.kind).toBe("rate_limited");
    expect(error.retryAfterMs).toBeGreaterThan(1000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3000);
    expect(error.userMessage).toMatch(/try again in [23] seconds/);
    expect(server.count(BALANCE_PATH)).toBe(1);
  });

  it("is waited for when short enough", async () => {
    server.handle((_req, res) => {
      if (server.count(BALANCE_PATH) === 1) {
        // Two seconds ahead, truncated to the second: the wait is over one second, far above the 1 ms backoff.
        sendJson(res, 429, { status: false, message: "slow down", data: {} }, { "retry-after": new Date(Date.now() + 2000).toUTCString() });
        return;
      }
      sendJson(res, 200, okBalance);
    });
    const started = Date.now();
    await expect(client({ backoffBaseMs: 1 }).getBalance()).resolves.toEqual(okBalance.data);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server.count(BALANCE_PATH)).toBe(2);
  });
});

// Fault injection and call statistics, as benchmarks and the app's resilience tests rely on them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "./server";
import { call, startTestSandbox } from "@/tests/support/sandbox";
import { waitFor } from "@/tests/support/wait-for";
import * as schema from "@/tests/support/wire-schemas";

const PEER = "/api/v1/transfer/request/peer";
const BALANCE = "/api/v1/business/balance";
let sandbox: Sandbox;
const api = (method: string, path: string, opts?: Parameters<typeof call>[4]) => call(sandbox, sandbox.apiUrl, method, path, opts);
const control = (method: string, path: string, body?: unknown) => call(sandbox, sandbox.apiUrl, method, path, { key: null, body });
const addFault = (fault: object) => control("POST", "/sandbox/faults", fault);
const stats = async () => schema.stats.parse((await control("GET", "/sandbox/stats")).json).calls;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control("POST", "/sandbox/faults/clear");
  await control("POST", "/sandbox/stats/reset");
});

describe("faults", () => {
  it("'500' answers a 500 envelope for exactly count requests", async () => {
    expect((await addFault({ path: BALANCE, mode: "500", count: 2 })).status).toBe(200);
    const first = await api("GET", BALANCE);
    expect(first.status).toBe(500);
    schema.errorEnvelope.parse(first.json);
    expect((await api("GET", BALANCE)).status).toBe(500);
    expect((await api("GET", BALANCE)).status).toBe(200);
  });

  it("counts down visibly and then disappears", async () => {
    await addFault({ path: BALANCE, mode: "500", count: 2 });
    const list = async () => schema.envelope(schema.faultList).parse((await control("GET", "/sandbox/faults")).json).data.faults;
    expect(await list()).toEqual([{ path: BALANCE, mode: "500", remaining: 2 }]);
    await api("GET", BALANCE);
    expect(await list()).toEqual([{ path: BALANCE, mode: "500", remaining: 1 }]);
    await api("GET", BALANCE);
    expect(await list()).toEqual([]);
  });

  it("'429' answers 429 with Retry-After: 1", async () => {
    await addFault({ path: "/api/v1/business", mode: "429", count: 1 });
    const res = await api("GET", BALANCE);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    schema.errorEnvelope.parse(res.json);
  });

  it("matches by path prefix only", async () => {
    await addFault({ path: PEER, mode: "500" });
    expect((await api("GET", BALANCE)).status).toBe(200);
    expect((await api("GET", `${PEER}/1001`)).status).toBe(500);
    expect((await api("POST", PEER, { body: { amount: 1, tag: "ada.obi", description: "x" } })).status).toBe(500);
  });

  it("applies before the key check and to the verify host", async () => {
    await addFault({ path: "/api/v1/transaction/", mode: "500", count: 1 });
    const res = await call(sandbox, sandbox.verifyUrl, "GET", "/api/v1/transaction/abc", { key: null });
    expect(res.status).toBe(500);
    expect((await call(sandbox, sandbox.verifyUrl, "GET", "/api/v1/transaction/abc", { key: null })).status).toBe(401);
  });

  it("without count lasts until cleared", async () => {
    await addFault({ path: "/", mode: "500" });
    for (let i = 0; i < 3; i += 1) expect((await api("GET", BALANCE)).status).toBe(500);
    const cleared = await control("POST", "/sandbox/faults/clear");
    expect(cleared.status).toBe(200);
    expect((await api("GET", BALANCE)).status).toBe(200);
  });

  it("never faults the control API or the consumer page", async () => {
    await addFault({ path: "/", mode: "500" });
    expect((await control("GET", "/sandbox/stats")).status).toBe(200);
    expect((await call(sandbox, sandbox.apiUrl, "GET", "/", { key: null })).status).toBe(200);
  });

  it("'malformed' answers 200 application/json with a body that does not parse", async () => {
    await addFault({ path: BALANCE, mode: "malformed", count: 1 });
    const res = await api("GET", BALANCE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(res.text) as unknown).toThrow(SyntaxError);
  });

  it("'slow' answers normally after slowDelayMs", async () => {
    await addFault({ path: BALANCE, mode: "slow", count: 1 });
    const started = performance.now();
    const res = await api("GET", BALANCE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(200);
    schema.envelope(schema.balances).parse(res.json);
  });

  it("'timeout' never answers, and close() still ends promptly", async () => {
    const own = await startTestSandbox();
    await call(own, own.apiUrl, "POST", "/sandbox/faults", { key: null, body: { path: BALANCE, mode: "timeout" } });
    await expect(call(own, own.apiUrl, "GET", BALANCE, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    const held = call(own, own.apiUrl, "GET", BALANCE).then(
      () => "answered",
      () => "dropped",
    );
    await waitFor("the held call to arrive", async () => {
      const res = await call(own, own.apiUrl, "GET", "/sandbox/stats", { key: null });
      return schema.stats.parse(res.json).calls[`GET ${BALANCE}`] === 2 ? true : undefined;
    });
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await held).toBe("dropped");
  });

  it.each([
    [{ path: "api", mode: "500" }, /path/],
    [{ path: "/api", mode: "teapot" }, /mode/],
    [{ path: "/api", mode: "500", count: 0 }, /count/],
    [{ path: "/api", mode: "500", count: 1.5 }, /count/],
  ])("rejects the fault %j", async (fault, message) => {
    const res = await addFault(fault);
    expect(res.status).toBe(400);
    expect(schema.errorEnvelope.parse(res.json).message).toMatch(message);
  });
});

describe("stats", () => {
  it("counts service calls by route pattern, faulted and unauthorised ones included", async () => {
    await api("GET", BALANCE);
    await api("GET", BALANCE, { key: null });
    const created = await api("POST", PEER, { body: { amount: 1, tag: "ada.obi", description: "x" } });
    const id = schema.createdEnvelope.parse(created.json).data.request_id;
    await api("GET", `${PEER}/${id}`);
    await api("GET", `${PEER}/999999`);
    await addFault({ path: BALANCE, mode: "500", count: 1 });
    await api("GET", BALANCE);
    await call(sandbox, sandbox.verifyUrl, "GET", "/api/v1/transaction/some-uuid");
    await call(sandbox, sandbox.apiUrl, "GET", "/", { key: null });
    await call(sandbox, sandbox.apiUrl, "GET", "/avatars/ada.obi.svg", { key: null });

    const res = await control("GET", "/sandbox/stats");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      calls: {
        "GET /api/v1/business/balance": 3,
        "POST /api/v1/transfer/request/peer": 1,
        "GET /api/v1/transfer/request/peer/:request_id": 2,
        "GET /api/v1/transaction/:transaction_uuid": 1,
      },
    });
  });

  it("resets to empty", async () => {
    await api("GET", BALANCE);
    expect(await stats()).toEqual({ "GET /api/v1/business/balance": 1 });
    expect((await control("POST", "/sandbox/stats/reset")).status).toBe(200);
    expect(await stats()).toEqual({});
  });
});

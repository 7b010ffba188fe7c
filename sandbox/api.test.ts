// The API host against the interface: envelope, shapes, auth and input errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "./server";
import { call, startTestSandbox } from "@/tests/support/sandbox";
import * as schema from "@/tests/support/wire-schemas";

let sandbox: Sandbox;
const api = (method: string, path: string, opts?: Parameters<typeof call>[4]) => call(sandbox, sandbox.apiUrl, method, path, opts);
const PEER = "/api/v1/transfer/request/peer";

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe("authentication", () => {
  it.each([
    ["no header", null],
    ["a wrong key", "sk_wrong"],
    ["the key with a suffix", "sk_sandbox_fundboard_dev_0000000000000000x"],
    ["a prefix of the key", "sk_sandbox_fundboard_dev"],
  ])("rejects %s with a 401 envelope", async (_label, key) => {
    const res = await api("GET", "/api/v1/business/balance", { key });
    expect(res.status).toBe(401);
    expect(schema.errorEnvelope.parse(res.json).message).toBe("Invalid or missing API key");
  });

  it("rejects a lower-case scheme because the header must match exactly", async () => {
    const res = await api("GET", "/api/v1/business/balance", { key: null, headers: { authorization: `bearer ${sandbox.apiKey}` } });
    expect(res.status).toBe(401);
  });

  it("protects fund request creation too", async () => {
    const res = await api("POST", PEER, { key: "nope", body: { amount: 10, tag: "ada.obi", description: "x" } });
    expect(res.status).toBe(401);
  });
});

describe("fund requests", () => {
  it("creates with a numeric request_id and fetches with a string one (2.2)", async () => {
    const meta = { notificationUrl: "http://127.0.0.1:9/hooks", transactionReference: "inv-0001" };
    const created = await api("POST", PEER, { body: { amount: 2500.75, tag: "ada.obi", description: "Invoice 1", meta } });
    expect(created.status).toBe(200);
    const { data, status } = schema.createdEnvelope.parse(created.json);
    expect(status).toBe(true);
    expect(data.request_id).toBeGreaterThanOrEqual(1001);

    const fetched = await api("GET", `${PEER}/${data.request_id}`);
    expect(fetched.status).toBe(200);
    const request = schema.envelope(schema.fundRequest).parse(fetched.json).data;
    expect(request).toEqual({
      request_id: String(data.request_id),
      description: "Invoice 1",
      amount: 2500.75,
      request_status: "pending",
      requested_by: { name: "Adaeze Foods Ltd", tag: "adaeze.foods" },
      requested_sent_to: { name: "Ada Obi", tag: "ada.obi" },
      meta,
      created_at: request.created_at,
      updated_at: request.created_at,
    });
  });

  it("numbers requests sequentially", async () => {
    const body = { amount: 1, tag: "tunde.bakare", description: "a" };
    const first = schema.createdEnvelope.parse((await api("POST", PEER, { body })).json).data.request_id;
    const second = schema.createdEnvelope.parse((await api("POST", PEER, { body })).json).data.request_id;
    expect(second).toBe(first + 1);
  });

  it("creates a consumer on first use of a fresh tag, the same person every time", async () => {
    const body = { amount: 5, tag: "fresh_tag-01", description: "new" };
    const id = schema.createdEnvelope.parse((await api("POST", PEER, { body })).json).data.request_id;
    const request = schema.envelope(schema.fundRequest).parse((await api("GET", `${PEER}/${id}`)).json).data;
    expect(request.requested_sent_to.tag).toBe("fresh_tag-01");
    expect(request.requested_sent_to.name).toMatch(/^\S+ \S+$/);
    expect(request.meta).toEqual({});
    const other = await startTestSandbox();
    try {
      const again = await call(other, other.apiUrl, "POST", PEER, { body });
      const id2 = schema.createdEnvelope.parse(again.json).data.request_id;
      const fetched = await call(other, other.apiUrl, "GET", `${PEER}/${id2}`);
      expect(schema.envelope(schema.fundRequest).parse(fetched.json).data.requested_sent_to.name).toBe(request.requested_sent_to.name);
    } finally {
      await other.close();
    }
  });

  it("answers a tag starting with 'missing' as an unknown user", async () => {
    const res = await api("POST", PEER, { body: { amount: 10, tag: "missing.x", description: "x" } });
    expect(res.status).toBe(404);
    expect(schema.errorEnvelope.parse(res.json).message).toBe("No user found with tag missing.x");
  });

  it.each(["999999", "abc", "1001abc"])("404s unknown request id %s", async (id) => {
    const res = await api("GET", `${PEER}/${id}`);
    expect(res.status).toBe(404);
    schema.errorEnvelope.parse(res.json);
  });
});

describe("invalid input", () => {
  const valid = { amount: 100, tag: "ada.obi", description: "ok" };

  it.each([
    ["a non-object body", [1, 2], /JSON object/],
    ["no amount", { tag: "ada.obi", description: "x" }, /amount/],
    ["a zero amount", { ...valid, amount: 0 }, /amount/],
    ["a negative amount", { ...valid, amount: -5 }, /amount/],
    ["a string amount", { ...valid, amount: "100" }, /amount/],
    ["sub-kobo precision", { ...valid, amount: 10.005 }, /amount.*2 decimal/],
    ["no tag", { amount: 1, description: "x" }, /tag/],
    ["a malformed tag", { ...valid, tag: "has space" }, /tag/],
    ["a one-character tag", { ...valid, tag: "a" }, /tag/],
    ["no description", { amount: 1, tag: "ada.obi" }, /description/],
    ["a non-object meta", { ...valid, meta: "x" }, /meta/],
    ["a non-URL notificationUrl", { ...valid, meta: { notificationUrl: "not a url" } }, /notificationUrl/],
    ["a numeric transactionReference", { ...valid, meta: { transactionReference: 7 } }, /transactionReference/],
  ])("rejects %s with a 400 naming the problem", async (_label, body, message) => {
    const res = await api("POST", PEER, { body });
    expect(res.status).toBe(400);
    expect(schema.errorEnvelope.parse(res.json).message).toMatch(message);
  });

  it("rejects invalid JSON", async () => {
    const res = await api("POST", PEER, { rawBody: '{"amount": 1,', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(schema.errorEnvelope.parse(res.json).message).toMatch(/not valid JSON/);
  });

  it("requires the JSON content type", async () => {
    const res = await api("POST", PEER, { rawBody: JSON.stringify(valid), headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(400);
    expect(schema.errorEnvelope.parse(res.json).message).toMatch(/Content-Type/);
  });

  it("rejects bodies over 64 KiB with 413", async () => {
    const res = await api("POST", PEER, { body: { ...valid, description: "x".repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    schema.errorEnvelope.parse(res.json);
  });

  it("answers unknown routes and wrong methods with envelopes", async () => {
    const unknown = await api("GET", "/api/v1/nothing-here");
    expect(unknown.status).toBe(404);
    schema.errorEnvelope.parse(unknown.json);
    const wrong = await api("DELETE", "/api/v1/business/balance");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
    schema.errorEnvelope.parse(wrong.json);
  });
});

describe("wallet balances (2.3)", () => {
  it("lists the seeded wallets with exact formatted balances and an exact total", async () => {
    const res = await api("GET", "/api/v1/business/balance");
    expect(res.status).toBe(200);
    const { data } = schema.envelope(schema.balances).parse(res.json);
    expect(data.wallets).toEqual([
      { name: "Main wallet", main_wallet: true, balance: 123456789, formatted_balance: "NGN 1,234,567.89" },
      { name: "Savings", main_wallet: false, balance: 250000.5, formatted_balance: "NGN 2,500.01" },
      { name: "Payroll", main_wallet: false, balance: 0, formatted_balance: "NGN 0.00" },
      { name: "Collections", main_wallet: false, balance: 9876543210.25, formatted_balance: "NGN 98,765,432.10" },
    ]);
    expect(data.wallets.filter((w) => w.main_wallet)).toHaveLength(1);
    // Balances have at most three decimals here, so thousandths are exact integers well below 2^53.
    const thousandths = data.wallets.reduce((sum, w) => sum + Math.round(w.balance * 1000), 0);
    expect(Math.round(data.total_balance * 1000)).toBe(thousandths);
    expect(String(data.total_balance)).toBe("10000249999.75");
  });
});

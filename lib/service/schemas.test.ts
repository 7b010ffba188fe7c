import "server-only";
import { describe, expect, it } from "vitest";
import {
  balanceEnvelopeSchema,
  createFundRequestEnvelopeSchema,
  envelope,
  fundRequestSchema,
  isPeerTransferSuccess,
  peerTransferPayloadSchema,
  verifiedTransactionEnvelopeSchema,
  webhookEnvelopeType,
} from "./schemas";
import { z } from "zod";

const fundRequest = {
  request_id: "17",
  description: "Invoice 42",
  amount: 1500.5,
  request_status: "pending",
  requested_by: { name: "Acme Ltd", tag: "acme" },
  requested_sent_to: { name: "Ada Obi", tag: "ada" },
  meta: { notificationUrl: "https://dash.example/api/webhooks/peer-transfer", transactionReference: "ref-1" },
  created_at: "2024-05-01T10:00:00.000Z",
  updated_at: "2024-05-01T10:00:00.000Z",
};

const payload = {
  type: "peer-transfer.success",
  uuid: "3f0c2a1e-9b7d-4c1a-8e2f-5a6b7c8d9e0f",
  amount: 1500.5,
  actual_amount: 1500.5,
  settled_amount: 1485.5,
  description: "Invoice 42",
  fees: 15,
  paypoint: false,
  customer: {
    uuid: "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
    avatar: "https://cdn.example/a.png",
    name: "Ada Obi",
    email: "ada@example.com",
    phone: "+2348000000000",
    bvn: "22123456789",
    tag: "ada",
    frequency: 3,
  },
  meta: { peer_tag: "ada", name: "Ada Obi" },
};

describe("envelope", () => {
  it("wraps any data schema and demands status and message", () => {
    const schema = envelope(z.object({ n: z.number() }));
    expect(schema.parse({ status: true, message: "ok", data: { n: 1 } })).toEqual({ status: true, message: "ok", data: { n: 1 } });
    expect(schema.safeParse({ status: "true", message: "ok", data: { n: 1 } }).success).toBe(false);
    expect(schema.safeParse({ status: true, data: { n: 1 } }).success).toBe(false);
  });
});

describe("request_id", () => {
  it("is a string out whether the service sent a number or a string", () => {
    expect(createFundRequestEnvelopeSchema.parse({ status: true, message: "", data: { request_id: 42 } }).data.request_id).toBe("42");
    expect(createFundRequestEnvelopeSchema.parse({ status: true, message: "", data: { request_id: "42" } }).data.request_id).toBe("42");
    expect(fundRequestSchema.parse({ ...fundRequest, request_id: 17 }).request_id).toBe("17");
  });

  it.each([null, "", 1.5, -1, true])("refuses %j", (id) => {
    expect(fundRequestSchema.safeParse({ ...fundRequest, request_id: id }).success).toBe(false);
  });
});

describe("fund request", () => {
  it("parses 2.2 and keeps unknown meta keys", () => {
    const parsed = fundRequestSchema.parse({ ...fundRequest, meta: { ...fundRequest.meta, orderId: 9 } });
    expect(parsed.meta).toEqual({ ...fundRequest.meta, orderId: 9 });
    expect(parsed.request_status).toBe("pending");
  });

  it("reads a missing or null meta as empty", () => {
    const { meta: _meta, ...noMeta } = fundRequest;
    expect(fundRequestSchema.parse(noMeta).meta).toEqual({});
    expect(fundRequestSchema.parse({ ...fundRequest, meta: null }).meta).toEqual({});
  });

  it("refuses an unknown status or a wrongly typed field", () => {
    expect(fundRequestSchema.safeParse({ ...fundRequest, request_status: "expired" }).success).toBe(false);
    expect(fundRequestSchema.safeParse({ ...fundRequest, amount: "1500.50" }).success).toBe(false);
    expect(fundRequestSchema.safeParse({ ...fundRequest, meta: { notificationUrl: 5 } }).success).toBe(false);
    expect(fundRequestSchema.safeParse({ ...fundRequest, requested_by: { name: "Acme" } }).success).toBe(false);
  });
});

describe("balance", () => {
  it("parses 2.3 with fractional minor-unit balances", () => {
    const data = {
      total_balance: 123456789.5,
      wallets: [
        { name: "Main", main_wallet: true, balance: 123456789, formatted_balance: "NGN 1,234,567.89" },
        { name: "Savings", main_wallet: false, balance: 0.5, formatted_balance: "NGN 0.01" },
      ],
    };
    expect(balanceEnvelopeSchema.parse({ status: true, message: "ok", data }).data).toEqual(data);
    expect(balanceEnvelopeSchema.safeParse({ status: true, message: "ok", data: { ...data, wallets: [{ name: "Main" }] } }).success).toBe(false);
  });
});

describe("webhook payload", () => {
  it("parses 2.4 and strips unknown keys at every level", () => {
    const parsed = peerTransferPayloadSchema.parse({
      ...payload,
      surprise: 1,
      customer: { ...payload.customer, nickname: "A" },
      meta: { ...payload.meta, channel: "app" },
    });
    const { bvn: _bvn, ...customer } = payload.customer;
    expect(parsed).toEqual({ ...payload, customer });
    expect(isPeerTransferSuccess(parsed)).toBe(true);
  });

  it("drops the bvn whatever its type, so nothing downstream can write it", () => {
    for (const bvn of ["22123456789", 22123456789, null, { digits: "22123456789" }]) {
      const parsed = peerTransferPayloadSchema.parse({ ...payload, customer: { ...payload.customer, bvn } });
      expect("bvn" in parsed.customer).toBe(false);
      expect(JSON.stringify(parsed)).not.toContain("22123456789");
    }
  });

  it("tolerates absent fields it does not need: contact details, customer uuid, frequency, paypoint", () => {
    const { bvn: _bvn, avatar: _avatar, uuid: _uuid, frequency: _frequency, ...customer } = payload.customer;
    const { paypoint: _paypoint, ...rest } = payload;
    const parsed = peerTransferPayloadSchema.parse({ ...rest, customer: { ...customer, email: null, phone: null } });
    expect(parsed.customer.email).toBeNull();
    expect(parsed.customer.uuid).toBeUndefined();
    expect(parsed.paypoint).toBeUndefined();
  });

  it.each([
    ["uuid not a uuid", { ...payload, uuid: "tx-1" }],
    ["amount as a string", { ...payload, amount: "1500.50" }],
    ["fees missing", { ...payload, fees: undefined }],
    ["paypoint as a string", { ...payload, paypoint: "false" }],
    ["customer uuid a number", { ...payload, customer: { ...payload.customer, uuid: 7 } }],
    ["frequency as a string", { ...payload, customer: { ...payload.customer, frequency: "3" } }],
    ["meta.peer_tag missing", { ...payload, meta: { name: "Ada Obi" } }],
    ["type missing", { ...payload, type: undefined }],
  ])("refuses %s", (_label, body) => {
    expect(peerTransferPayloadSchema.safeParse(body).success).toBe(false);
  });

  it("webhookEnvelopeType reads the event type of any body", () => {
    expect(webhookEnvelopeType(payload)).toBe("peer-transfer.success");
    expect(webhookEnvelopeType({ type: "peer-transfer.reversed" })).toBe("peer-transfer.reversed");
    expect(webhookEnvelopeType({ type: 3 })).toBeNull();
    expect(webhookEnvelopeType([])).toBeNull();
    expect(webhookEnvelopeType(null)).toBeNull();
    expect(isPeerTransferSuccess({ type: "peer-transfer.reversed" })).toBe(false);
  });
});

describe("verified transaction", () => {
  it("needs a uuid, types the amounts it has, and keeps other keys", () => {
    const data = { uuid: payload.uuid, status: "success", amount: 10, currency: "NGN" };
    expect(verifiedTransactionEnvelopeSchema.parse({ status: true, message: "ok", data }).data).toEqual(data);
    expect(verifiedTransactionEnvelopeSchema.parse({ status: true, message: "ok", data: { uuid: "x" } }).data).toEqual({ uuid: "x" });
    expect(verifiedTransactionEnvelopeSchema.safeParse({ status: true, message: "ok", data: { status: "success" } }).success).toBe(false);
    expect(verifiedTransactionEnvelopeSchema.safeParse({ status: true, message: "ok", data: { uuid: "x", amount: "10" } }).success).toBe(false);
  });
});

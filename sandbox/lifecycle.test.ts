// Accept / decline, settlement, the signed webhook with retries, and the verify host.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "./server";
import { call, startTestSandbox } from "@/tests/support/sandbox";
import { startReceiver, type Receiver } from "@/tests/support/test-http";
import { waitFor } from "@/tests/support/wait-for";
import * as schema from "@/tests/support/wire-schemas";
import { deliverySignature } from "@/tests/support/sign-delivery";

const PEER = "/api/v1/transfer/request/peer";
let sandbox: Sandbox;
let receiver: Receiver;
const api = (method: string, path: string, opts?: Parameters<typeof call>[4]) => call(sandbox, sandbox.apiUrl, method, path, opts);
const verify = (uuid: string, key?: string | null) => call(sandbox, sandbox.verifyUrl, "GET", `/api/v1/transaction/${uuid}`, { key });

beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = await startReceiver([200]);
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function createRequest(target: Sandbox, body: object): Promise<number> {
  const res = await call(target, target.apiUrl, "POST", PEER, { body });
  expect(res.status).toBe(200);
  return schema.createdEnvelope.parse(res.json).data.request_id;
}

async function statusOf(target: Sandbox, id: number): Promise<string> {
  const res = await call(target, target.apiUrl, "GET", `${PEER}/${id}`);
  return schema.envelope(schema.fundRequest).parse(res.json).data.request_status;
}

async function mainBalance(): Promise<number> {
  const { data } = schema.envelope(schema.balances).parse((await api("GET", "/api/v1/business/balance")).json);
  const main = data.wallets.find((w) => w.main_wallet);
  if (!main) throw new Error("no main wallet");
  return main.balance;
}

async function deliveriesOf(target: Sandbox) {
  return schema.deliveries.parse((await call(target, target.apiUrl, "GET", "/sandbox/webhooks")).json).data.deliveries;
}

const kobo = (naira: number) => Math.round(naira * 100);
const acceptedEvent = (res: { json: unknown }) => schema.acceptedEnvelope.parse(res.json).data.transaction;

describe("accepting a request", () => {
  it("settles, signs and delivers the webhook, grows the main wallet and verifies", async () => {
    const before = await mainBalance();
    const id = await createRequest(sandbox, {
      amount: 1500.5,
      tag: "chioma.eze",
      description: "Order #42",
      meta: { notificationUrl: receiver.url, transactionReference: "ref-42" },
    });
    const pending = schema.envelope(schema.fundRequest).parse((await api("GET", `${PEER}/${id}`)).json).data;

    const accepted = await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
    expect(accepted.status).toBe(200);
    const after = schema.envelope(schema.fundRequest).parse((await api("GET", `${PEER}/${id}`)).json).data;
    expect(after.request_status).toBe("accepted");
    expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(pending.updated_at));
    expect(after.created_at).toBe(pending.created_at);

    // This request's delivery: the receiver is shared with other tests, which may run before this one.
    const hook = await waitFor("the webhook", () =>
      receiver.received.find((h) => {
        const body = JSON.parse(h.body.toString("utf8")) as { description?: string; amount?: number };
        return body.description === "Order #42" && body.amount === 1500.5;
      }),
    );
    expect(hook.headers["content-type"]).toBe("application/json");
    const expected = deliverySignature(hook.body, sandbox.apiKey);
    expect(hook.headers["x-service-signature"]).toMatch(/^[0-9a-f]{128}$/);
    expect(hook.headers["x-service-signature"]).toBe(expected);

    const event = schema.paymentEvent.parse(JSON.parse(hook.body.toString("utf8")));
    expect(event.type).toBe("peer-transfer.success");
    expect(event.amount).toBe(1500.5);
    expect(event.actual_amount).toBe(1500.5);
    expect(event.fees).toBe(15.01); // 1% of 150050 kobo = 1500.5, rounded half up
    expect(kobo(event.settled_amount)).toBe(kobo(event.actual_amount) - kobo(event.fees));
    expect(event.description).toBe("Order #42");
    expect(event.paypoint).toBe(false);
    expect(event.meta).toEqual({ peer_tag: "chioma.eze", name: "Chioma Eze" });
    expect(event.customer).toMatchObject({ tag: "chioma.eze", name: "Chioma Eze", frequency: 1 });
    expect(event.customer.avatar).toBe(`${sandbox.apiUrl}/avatars/chioma.eze.svg`);
    const avatar = await fetch(event.customer.avatar);
    expect(avatar.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await avatar.text()).toMatch(/^<svg /);

    expect(kobo(await mainBalance()) - kobo(before)).toBe(kobo(event.settled_amount) * 100);

    const verified = await verify(event.uuid);
    expect(verified.status).toBe(200);
    const tx = schema.envelope(schema.verifiedTransaction).parse(verified.json).data;
    expect(tx).toEqual({
      uuid: event.uuid,
      type: "peer-transfer.success",
      status: "success",
      amount: event.amount,
      actual_amount: event.actual_amount,
      settled_amount: event.settled_amount,
      fees: event.fees,
      description: "Order #42",
      currency: "NGN",
      customer: {
        uuid: event.customer.uuid,
        name: event.customer.name,
        tag: event.customer.tag,
        email: event.customer.email,
        phone: event.customer.phone,
      },
      meta: event.meta,
      created_at: tx.created_at,
    });
  });

  it("refuses to accept or decline a request twice", async () => {
    const id = await createRequest(sandbox, { amount: 10, tag: "tunde.bakare", description: "twice" });
    expect((await api("POST", `/sandbox/requests/${id}/accept`, { key: null })).status).toBe(200);
    const again = await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
    expect(again.status).toBe(409);
    schema.errorEnvelope.parse(again.json);
    expect((await api("POST", `/sandbox/requests/${id}/decline`, { key: null })).status).toBe(409);
    expect((await api("POST", "/sandbox/requests/987654/accept", { key: null })).status).toBe(404);
  });

  it("caps the fee at NGN 100 and counts the customer's payments", async () => {
    const tag = "big.spender";
    const first = await createRequest(sandbox, { amount: 50000, tag, description: "big", meta: { notificationUrl: receiver.url } });
    const second = await createRequest(sandbox, { amount: 0.55, tag, description: "tiny", meta: { notificationUrl: receiver.url } });
    const one = await api("POST", `/sandbox/requests/${first}/accept`, { key: null });
    const two = await api("POST", `/sandbox/requests/${second}/accept`, { key: null });
    const big = acceptedEvent(one);
    const tiny = acceptedEvent(two);
    expect(big.fees).toBe(100);
    expect(big.settled_amount).toBe(49900);
    expect(big.customer.frequency).toBe(1);
    expect(tiny.fees).toBe(0.01); // 0.55 kobo rounds half up to 1 kobo
    expect(tiny.settled_amount).toBe(0.54);
    expect(tiny.customer.frequency).toBe(2);
  });

  it("accepts without sending the webhook when asked (a lost webhook): settled and verifiable, no delivery", async () => {
    const id = await createRequest(sandbox, { amount: 25, tag: "ada.obi", description: "lost hook", meta: { notificationUrl: receiver.url } });
    const res = await api("POST", `/sandbox/requests/${id}/accept`, { key: null, body: { webhook: false } });
    expect(res.status).toBe(200);
    expect(await statusOf(sandbox, id)).toBe("accepted");
    const { uuid } = acceptedEvent(res);
    expect((await verify(uuid)).status).toBe(200);
    expect((await deliveriesOf(sandbox)).filter((d) => d.request_id === id)).toEqual([]);
    // A body that is not JSON is refused with the reason, and nothing is accepted.
    const other = await createRequest(sandbox, { amount: 5, tag: "ada.obi", description: "bad body", meta: { notificationUrl: receiver.url } });
    const bad = await fetch(`${sandbox.apiUrl}/sandbox/requests/${other}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(await statusOf(sandbox, other)).toBe("pending");
    // `curl -d '{"webhook":false}'` labels its JSON a form, and a bare fetch text/plain: both are read as JSON.
    for (const type of ["application/x-www-form-urlencoded", "text/plain;charset=UTF-8"]) {
      const quiet = await createRequest(sandbox, { amount: 7, tag: "ada.obi", description: type, meta: { notificationUrl: receiver.url } });
      const res = await fetch(`${sandbox.apiUrl}/sandbox/requests/${quiet}/accept`, {
        method: "POST",
        headers: { "content-type": type },
        body: '{"webhook":false}',
      });
      expect(res.status, type).toBe(200);
      expect(await statusOf(sandbox, quiet)).toBe("accepted");
      expect(
        (await deliveriesOf(sandbox)).filter((d) => d.request_id === quiet),
        type,
      ).toEqual([]);
    }
  });

  it("sends nothing when there is no notification URL", async () => {
    const id = await createRequest(sandbox, { amount: 10, tag: "ada.obi", description: "no hook" });
    await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
    expect((await deliveriesOf(sandbox)).filter((d) => d.request_id === id)).toEqual([]);
  });
});

describe("declining a request", () => {
  it("moves it to declined and sends no webhook", async () => {
    const id = await createRequest(sandbox, { amount: 10, tag: "ada.obi", description: "no", meta: { notificationUrl: receiver.url } });
    const res = await api("POST", `/sandbox/requests/${id}/decline`, { key: null });
    expect(res.status).toBe(200);
    expect(await statusOf(sandbox, id)).toBe("declined");
    expect((await deliveriesOf(sandbox)).filter((d) => d.request_id === id)).toEqual([]);
  });
});

describe("automatic consumers", () => {
  it("accept.auto accepts by itself and the webhook follows", async () => {
    const id = await createRequest(sandbox, { amount: 20, tag: "accept.auto", description: "auto", meta: { notificationUrl: receiver.url } });
    expect(await statusOf(sandbox, id)).toBe("pending");
    await waitFor("accept.auto to accept", async () => ((await statusOf(sandbox, id)) === "accepted" ? true : undefined));
    const delivery = await waitFor("the delivery", async () => (await deliveriesOf(sandbox)).find((d) => d.request_id === id && d.outcome === "delivered"));
    expect(JSON.parse(delivery.body)).toMatchObject({ amount: 20, meta: { peer_tag: "accept.auto", name: "Auto Accept" } });
  });

  it("decline.auto declines by itself", async () => {
    const id = await createRequest(sandbox, { amount: 20, tag: "decline.auto", description: "auto" });
    await waitFor("decline.auto to decline", async () => ((await statusOf(sandbox, id)) === "declined" ? true : undefined));
  });
});

describe("webhook retries", () => {
  it("retries a failing receiver once per configured delay until it succeeds", async () => {
    const flaky = await startReceiver([500, 503, 200]);
    try {
      const id = await createRequest(sandbox, { amount: 30, tag: "ada.obi", description: "retry", meta: { notificationUrl: flaky.url } });
      await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
      const delivery = await waitFor("a delivered webhook", async () =>
        (await deliveriesOf(sandbox)).find((d) => d.request_id === id && d.outcome === "delivered"),
      );
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
      expect(flaky.received).toHaveLength(3);
      const bodies = new Set(flaky.received.map((r) => r.body.toString("utf8")));
      expect(bodies.size).toBe(1);
      for (const hook of flaky.received) {
        expect(hook.headers["x-service-signature"]).toBe(deliverySignature(hook.body, sandbox.apiKey));
      }
    } finally {
      await flaky.close();
    }
  });

  it("gives up after the last delay and records network errors", async () => {
    const broken = await startReceiver([500]);
    const deadUrl = broken.url;
    try {
      const id = await createRequest(sandbox, { amount: 30, tag: "ada.obi", description: "fail", meta: { notificationUrl: deadUrl } });
      await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
      const delivery = await waitFor("a failed webhook", async () => (await deliveriesOf(sandbox)).find((d) => d.request_id === id && d.outcome === "failed"));
      expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500]);
    } finally {
      await broken.close();
    }
    const id = await createRequest(sandbox, { amount: 30, tag: "ada.obi", description: "refused", meta: { notificationUrl: deadUrl } });
    await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
    const refused = await waitFor("a failed webhook", async () => (await deliveriesOf(sandbox)).find((d) => d.request_id === id && d.outcome === "failed"));
    expect(refused.attempts).toHaveLength(3);
    expect(refused.attempts.every((a) => typeof a.error === "string" && a.status === undefined)).toBe(true);
  });

  it("sends to the webhookUrl option instead of meta.notificationUrl when set", async () => {
    const configured = await startReceiver([200]);
    const other = await startTestSandbox({ webhookUrl: configured.url, apiKey: "sk_test_other_key" });
    try {
      const id = await createRequest(other, { amount: 10, tag: "ada.obi", description: "override", meta: { notificationUrl: receiver.url } });
      const already = receiver.received.length;
      await call(other, other.apiUrl, "POST", `/sandbox/requests/${id}/accept`, { key: null });
      const hook = await waitFor("the configured receiver", () => configured.received[0]);
      expect(hook.headers["x-service-signature"]).toBe(deliverySignature(hook.body, "sk_test_other_key"));
      expect(receiver.received.length).toBe(already);
    } finally {
      await other.close();
      await configured.close();
    }
  });
});

describe("verify host", () => {
  it("requires the key and 404s unknown transactions", async () => {
    expect((await verify("00000000-0000-4000-8000-000000000000", null)).status).toBe(401);
    expect((await verify("00000000-0000-4000-8000-000000000000", "wrong")).status).toBe(401);
    const unknown = await verify("00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    schema.errorEnvelope.parse(unknown.json);
    const elsewhere = await call(sandbox, sandbox.verifyUrl, "GET", "/api/v1/business/balance");
    expect(elsewhere.status).toBe(404);
  });

  it("reports an overridden amount so callers can test a mismatch", async () => {
    const id = await createRequest(sandbox, { amount: 75, tag: "ada.obi", description: "mismatch" });
    const res = await api("POST", `/sandbox/requests/${id}/accept`, { key: null });
    const { uuid } = acceptedEvent(res);
    const override = await api("POST", `/sandbox/transactions/${uuid}/override`, { key: null, body: { amount: 7500 } });
    expect(override.status).toBe(200);
    const tx = schema.envelope(schema.verifiedTransaction).parse((await verify(uuid)).json).data;
    expect(tx.amount).toBe(7500);
    expect(tx.actual_amount).toBe(75);
    await api("POST", `/sandbox/transactions/${uuid}/override`, { key: null, body: {} });
    expect(schema.envelope(schema.verifiedTransaction).parse((await verify(uuid)).json).data.amount).toBe(75);
  });
});

describe("minor-unit amounts", () => {
  it("takes whole kobo and prices fees in kobo", async () => {
    const minor = await startTestSandbox({ amountUnit: "minor" });
    try {
      const bad = await call(minor, minor.apiUrl, "POST", PEER, { body: { amount: 100.5, tag: "ada.obi", description: "x" } });
      expect(bad.status).toBe(400);
      expect(schema.errorEnvelope.parse(bad.json).message).toMatch(/whole number/);
      const id = await createRequest(minor, { amount: 12345, tag: "ada.obi", description: "kobo" });
      const res = await call(minor, minor.apiUrl, "POST", `/sandbox/requests/${id}/accept`, { key: null });
      const event = acceptedEvent(res);
      expect(event).toMatchObject({ amount: 12345, actual_amount: 12345, fees: 123, settled_amount: 12222 });
      const balance = schema.envelope(schema.balances).parse((await call(minor, minor.apiUrl, "GET", "/api/v1/business/balance")).json).data;
      expect(balance.wallets[0]).toMatchObject({ main_wallet: true, balance: 123456789 + 12222, formatted_balance: "NGN 1,234,690.11" });
    } finally {
      await minor.close();
    }
  });
});

// Signing as a receiver checks it: the `standardwebhooks` package's own Webhook.verify on the other side.
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";

import { newWebhookSecret, secretBytes } from "./secret";
import { BODY_LIMIT_BYTES, signDelivery } from "./sign";

const BODY = JSON.stringify({ id: "evt_01J9", type: "payment.received", data: { amount: "1500.00", note: "naïra ₦ ✓" } });

describe("newWebhookSecret", () => {
  it("is whsec_ and base64 of 32 random bytes", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretBytes(a)).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
    expect(() => secretBytes("whsec_not base64!")).toThrow(/whsec_ followed by base64/);
  });
});

describe("signDelivery", () => {
  it("signs with one secret so Webhook.verify accepts it, the body unchanged", () => {
    const secret = newWebhookSecret();
    const timestamp = new Date();
    const headers = signDelivery({ id: "evt_01J9", timestamp, body: BODY, secrets: [secret] });
    expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
    expect(headers["webhook-id"]).toBe("evt_01J9");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    // Any change to the body, the id or the timestamp breaks it; another secret does not verify.
    expect(() => new Webhook(secret).verify(BODY.replace("1500", "1501"), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(BODY, { ...headers, "webhook-id": "evt_other" })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(BODY, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) })).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(newWebhookSecret()).verify(BODY, headers)).toThrow(WebhookVerificationError);
  });

  it("matches the HMAC-SHA256 of id.timestamp.body with the decoded secret", async () => {
    const { createHmac } = await import("node:crypto");
    const secret = newWebhookSecret();
    const timestamp = new Date("2026-03-01T10:00:00.900Z");
    const headers = signDelivery({ id: "evt_x", timestamp, body: BODY, secrets: [secret] });
    const expected = createHmac("sha256", secretBytes(secret)).update(`evt_x.1772359200.${BODY}`).digest("base64");
    expect(headers["webhook-timestamp"]).toBe("1772359200");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("signs with both secrets while they overlap: either one alone verifies", () => {
    const [old, current] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signDelivery({ id: "evt_rotated", timestamp: new Date(), body: BODY, secrets: [current, old] });
    const signatures = headers["webhook-signature"]!.split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => /^v1,[A-Za-z0-9+/]{43}=$/.test(s))).toBe(true);
    expect(new Webhook(old).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(new Webhook(current).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(newWebhookSecret()).verify(BODY, headers)).toThrow(WebhookVerificationError);
  });

  it("keeps webhook-id the same on every attempt while the timestamp and signature move", () => {
    const secret = newWebhookSecret();
    const first = signDelivery({ id: "evt_same", timestamp: new Date(Date.now() - 60_000), body: BODY, secrets: [secret] });
    const retry = signDelivery({ id: "evt_same", timestamp: new Date(), body: BODY, secrets: [secret] });
    expect(retry["webhook-id"]).toBe(first["webhook-id"]);
    expect(retry["webhook-timestamp"]).not.toBe(first["webhook-timestamp"]);
    expect(retry["webhook-signature"]).not.toBe(first["webhook-signature"]);
    for (const headers of [first, retry]) expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it("refuses to sign with no secret", () => {
    expect(() => signDelivery({ id: "evt", timestamp: new Date(), body: BODY, secrets: [] })).toThrow(/at least one secret/);
    expect(BODY_LIMIT_BYTES).toBe(65_536);
  });
});

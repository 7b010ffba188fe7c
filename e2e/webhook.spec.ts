import { createHmac } from "node:crypto";

import { expect, test } from "@playwright/test";

import { DEV_API_KEY } from "../sandbox/dev-key";
import { payload } from "../tests/payloads";

const sign = (body: string, key = DEV_API_KEY) => createHmac("sha512", key).update(body).digest("hex");
const URL_PATH = "/api/webhooks/peer-transfer";

test.describe("the webhook route over HTTP", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("answers each kind of delivery with its own status and the envelope", async ({ request }) => {
    const body = JSON.stringify(payload());
    // A Buffer goes out byte for byte (a string with a JSON content type would be re-encoded).
    const post = (data: string, headers: Record<string, string>) => request.post(URL_PATH, { data: Buffer.from(data), headers });
    const cases: [string, Promise<{ status(): number; json(): Promise<unknown> }>, number][] = [
      ["valid", post(body, { "content-type": "application/json", "x-service-signature": sign(body) }), 200],
      ["duplicate", post(body, { "content-type": "application/json", "x-service-signature": sign(body) }), 200],
      ["wrong key", post(body, { "content-type": "application/json", "x-service-signature": sign(body, "other") }), 401],
      ["no signature", post(body, { "content-type": "application/json" }), 401],
      ["wrong content type", post(body, { "content-type": "text/plain", "x-service-signature": sign(body) }), 415],
      ["malformed JSON", post("{nope", { "content-type": "application/json", "x-service-signature": sign("{nope") }), 400],
      ["65 KiB", post("x".repeat(65 * 1024), { "content-type": "application/json", "x-service-signature": sign("x") }), 413],
    ];
    for (const [name, pending, status] of cases) {
      const res = await pending;
      expect(res.status(), name).toBe(status);
      const json = (await res.json()) as { status: boolean; message: string };
      expect(json.status, name).toBe(status === 200);
      expect(json.message.length, name).toBeGreaterThan(5);
    }
  });

  test("needs no session but refuses other methods", async ({ request }) => {
    expect((await request.get(URL_PATH)).status()).toBe(405);
  });
});

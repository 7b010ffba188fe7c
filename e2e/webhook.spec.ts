import { expect, test } from "@playwright/test";

import { DEV_API_KEY } from "@/lib/config/dev-key";
import { payload } from "../tests/support/payloads";
import { deliverySignature } from "../tests/support/sign-delivery";

const sign = (body: string, key = DEV_API_KEY) => deliverySignature(body, key);
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

// docs/architecture.md: forged deliveries are refused at once, logged without a body in the background, and
// three in an hour show admins a banner naming both likely causes and where they came from.
test("forged deliveries raise the admin banner, which names both causes and the source", async ({ page, request }) => {
  const source = "203.0.113.77";
  const body = JSON.stringify(payload());
  for (let i = 0; i < 3; i++) {
    const res = await request.post(URL_PATH, {
      data: Buffer.from(body),
      headers: { "content-type": "application/json", "x-service-signature": sign(body, "a-forgers-key"), "x-forwarded-for": source },
    });
    expect(res.status()).toBe(401);
  }
  const banner = page.getByTestId("bad-signature-banner");
  // The rows are written after the answer: reload until they are counted.
  await expect(async () => {
    await page.goto("/webhooks");
    await expect(banner).toContainText(source, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(banner).toHaveAttribute("role", "alert");
  await expect(banner).toContainText("SERVICE_API_KEY");
  await expect(banner).toContainText("stray space or newline");
  await expect(banner).toContainText("forged deliveries");
  const rows = page.getByTestId("delivery-row").filter({ hasText: source });
  await expect(rows.first()).toHaveAttribute("data-outcome", "bad_signature");
  await expect(rows.first()).not.toContainText("Show body");
});

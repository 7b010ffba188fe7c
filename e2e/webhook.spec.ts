import { expect, test } from "@playwright/test";

import { DEV_API_KEY } from "@/lib/config/dev-key";
import { payload } from "../tests/support/payloads";
import { deliverySignature } from "../tests/support/sign-delivery";
import { DEMO_ADMIN, ownSession } from "./support";

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
test("forged deliveries raise the admin banner, which names both causes and the source", async ({ browser, request }) => {
  const admin = await ownSession(browser, DEMO_ADMIN.email, DEMO_ADMIN.password);
  const page = await admin.newPage();
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
  // For the finance team first: what it means for payments, and who to tell.
  await expect(banner).toContainText("Nothing was recorded from them");
  await expect(banner).toContainText("tell whoever set up the webhook secret (your developer or admin)");
  const rows = page.getByTestId("delivery-row").filter({ hasText: source });
  await expect(rows.first()).toHaveAttribute("data-outcome", "bad_signature");
  await expect(rows.first().getByTestId("delivery-outcome")).toHaveText("Refused: bad signature");
  // Refused unread: no message is kept, only the technical facts.
  await expect(rows.first()).not.toContainText("Show the full message");
  await expect(rows.first()).toContainText("Technical details");

  // The banner's link filters the log to bad signatures (in the URL), and the address reads as a person knows it.
  await banner.getByRole("link", { name: "See them in the delivery log." }).click();
  await expect(page).toHaveURL(/\/webhooks\?outcome=bad_signature$/);
  await expect(page.getByLabel("Outcome")).toHaveValue("bad_signature");
  const outcomes = await page.getByTestId("delivery-row").evaluateAll((list) => list.map((row) => row.getAttribute("data-outcome")));
  expect(new Set(outcomes)).toEqual(new Set(["bad_signature"]));
  await expect(page.getByTestId("delivery-row").filter({ hasText: "::ffff:" })).toHaveCount(0);
  await admin.close();
});

test("an accepted delivery reads as a payment in words, with the whole message folded away", async ({ browser, request }) => {
  const admin = await ownSession(browser, DEMO_ADMIN.email, DEMO_ADMIN.password);
  const page = await admin.newPage();
  const body = JSON.stringify(payload({ amount: 2750, description: "Invoice 921" }));
  const res = await request.post(URL_PATH, {
    data: Buffer.from(body),
    headers: { "content-type": "application/json", "x-service-signature": sign(body), "x-forwarded-for": "::ffff:198.51.100.23" },
  });
  expect(res.status()).toBe(200);
  await page.goto("/webhooks");
  await page.getByLabel("Outcome").selectOption("accepted");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/outcome=accepted/);
  const row = page.getByTestId("delivery-row").filter({ hasText: "Invoice 921" });
  await expect(row).toHaveAttribute("data-outcome", "recorded");
  await expect(row.getByTestId("delivery-outcome")).toHaveText("Payment recorded");
  await expect(row.getByTestId("delivery-payment")).toContainText("from Ada Obi (@ada.obi)");
  await expect(row.getByTestId("delivery-payment")).toContainText("NGN");
  await expect(row).toContainText("198.51.100.23");
  await expect(row).not.toContainText("::ffff:");
  await row.getByText("Show the full message").click();
  await expect(row.getByLabel("The message as received")).toContainText('"description": "Invoice 921"');
  await expect(row.getByLabel("The message as received")).not.toContainText("22123456789");
  await admin.close();
});

import { expect, test } from "@playwright/test";

import { BASE_URL, SANDBOX_URL, sandbox, uniqueTag } from "./support";

async function sendFromForm(page: import("@playwright/test").Page, tag: string, amount: string, description: string): Promise<string> {
  await page.goto("/requests/new");
  await page.getByLabel("Tag of the person to ask").fill(tag);
  await page.getByLabel("Amount (₦)").fill(amount);
  await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page).toHaveURL(/\/requests\/\d+$/);
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  return page.url().split("/").pop() ?? "";
}

test("a person accepts in the consumer app: the status view turns accepted, shows the payment, then verified, with no reload", async ({ page, context }) => {
  const tag = uniqueTag("person");
  const id = await sendFromForm(page, tag, "321.09", "Consumer accepts");
  await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "pending");
  let loads = 0;
  page.on("load", () => (loads += 1));

  const consumer = await context.newPage();
  await consumer.goto(`${SANDBOX_URL}/`);
  await consumer.getByRole("button", { name: new RegExp(`^Accept request ${id},`) }).click();
  await expect(consumer.getByRole("button", { name: new RegExp(`^Accept request ${id},`) })).toHaveCount(0);

  await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "accepted", { timeout: 15_000 });
  const payment = page.getByTestId("linked-payment");
  await expect(payment.getByTestId("verification-badge")).toHaveAttribute("data-state", "verified", { timeout: 20_000 });
  await expect(payment).toContainText("NGN 321.09");
  expect(loads).toBe(0);
});

test("a person declines in the consumer app: the status view turns declined, with no payment", async ({ page, context }) => {
  const tag = uniqueTag("decliner");
  const id = await sendFromForm(page, tag, "12", "Consumer declines");
  const consumer = await context.newPage();
  await consumer.goto(`${SANDBOX_URL}/`);
  await consumer.getByRole("button", { name: new RegExp(`^Decline request ${id},`) }).click();
  // A decline sends no webhook: the reconciler notices it at its pace, behind the other specs' pending requests.
  await expect(page.getByTestId("status-badge").first()).toHaveAttribute("data-status", "declined", { timeout: 45_000 });
  await expect(page.getByTestId("linked-payment")).toHaveText("No payment yet.");
});

test("the payments page takes in a new payment with no reload: the list, and the server-drawn chart", async ({ page, request }) => {
  await page.goto("/payments");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  const chartText = page
    .getByRole("region", { name: /Settled per day/ })
    .locator("p")
    .first();
  const before = (await chartText.textContent()) ?? "";
  let loads = 0;
  page.on("load", () => (loads += 1));

  // An amount no other test uses, so its row is unmistakable.
  const made = await request.post("/api/requests", {
    headers: { Origin: BASE_URL },
    data: { tag: uniqueTag("chart"), amount: "7319.47", description: "Chart goes live", idempotencyKey: `chart${Date.now()}` },
  });
  expect(made.status()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;
  await sandbox.act(requestId, "accept");

  await expect(page.getByRole("table").getByText("NGN 7,319.47").first()).toBeVisible({ timeout: 15_000 });
  await expect(chartText).not.toHaveText(before, { timeout: 15_000 });
  expect(loads).toBe(0);
});

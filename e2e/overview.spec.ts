import { expect, test } from "@playwright/test";

import type { DeskTotals } from "@/lib/payments/desk";
import { DEV_API_KEY } from "@/lib/config/dev-key";
import { BASE_URL, E2E_SANDBOX_PORT, koboOf, nairaText, sandbox, uniqueTag } from "./support";

/** A wallet's balance (minor units, up to three decimals of a kobo, as JSON carries it) in thousandths of a kobo. */
function milliKobo(balance: number): bigint {
  const [whole = "0", fraction = ""] = String(balance).split(".");
  expect(fraction.length, `balance ${balance} has more decimals than the sandbox serves`).toBeLessThanOrEqual(3);
  return BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, "0"));
}

interface Wallet {
  name: string;
  balance: number;
  formatted_balance: string;
}

test("the overview shows every wallet's formatted_balance exactly as the sandbox serves it, and the total", async ({ page, request }) => {
  const res = await request.get(`http://127.0.0.1:${E2E_SANDBOX_PORT}/api/v1/business/balance`, {
    headers: { Authorization: `Bearer ${DEV_API_KEY}` },
  });
  expect(res.ok()).toBe(true);
  const wallets = ((await res.json()) as { data: { wallets: Wallet[] } }).data.wallets;
  expect(wallets.length).toBeGreaterThanOrEqual(3);

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const cards = page.getByTestId("wallet");
  await expect(cards).toHaveCount(wallets.length);
  for (const wallet of wallets) {
    const card = cards.filter({ has: page.getByTestId("wallet-name").getByText(wallet.name, { exact: true }) });
    await expect(card.getByTestId("wallet-balance")).toHaveText(wallet.formatted_balance);
  }
  // Balances are minor units that may carry a fraction of a kobo: the total is their exact sum, rounded half up to the kobo.
  const total = wallets.reduce((sum, w) => sum + milliKobo(w.balance), 0n);
  expect(total).toBeGreaterThan(0n);
  await expect(page.getByTestId("total-balance")).toHaveText(nairaText((total + 500n) / 1000n));
});

test("the overview's recent payments and money panel update live when a consumer pays", async ({ page, request }) => {
  await sandbox.quiet();
  const before = ((await (await request.get("/api/desk")).json()) as { data: DeskTotals }).data;
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  // The list is a query refetched by live events: an event published before the stream is open would never reach it.
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  const tag = uniqueTag("live.overview");
  const made = await request.post("/api/requests", {
    headers: { Origin: BASE_URL },
    data: { tag, amount: "321.00", description: "Overview live", idempotencyKey: `ov_${tag.replace(/\W/g, "_")}` },
  });
  expect(made.status()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;
  await sandbox.act(requestId, "accept");
  // No reload: the payment.recorded event refetches the list's query.
  await expect(page.getByTestId("recent-payment").filter({ hasText: `@${tag}` })).toBeVisible({ timeout: 15_000 });
  // The money panel's "paid" (settled plus fees) moved by the payment's gross, today, this week and this month, with no reload.
  for (const period of ["today", "week", "month"] as const) {
    const paidBefore = koboOf(before[period].settled) + koboOf(before[period].fees);
    await expect(page.getByTestId(`desk-${period}`).getByTestId("desk-gross")).toHaveText(nairaText(paidBefore + 32_100n));
  }
  await expect(page.getByTestId("desk-outstanding-amount")).toHaveText(nairaText(koboOf(before.outstanding.amount)));
});

import { mkdirSync } from "node:fs";

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

import { BASE_URL } from "./support";

test.describe.configure({ mode: "serial" });

/** Every page of the dashboard, with ids made fresh so detail pages have something to show. */
async function pages(page: Page): Promise<{ name: string; path: string }[]> {
  const made = await page.request.post(`${BASE_URL}/api/requests`, {
    headers: { Origin: BASE_URL },
    data: { tag: "accept.auto", amount: "88.80", description: "Page tour", idempotencyKey: `tour${Date.now()}` },
  });
  expect(made.status()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;
  const list = [
    { name: "overview", path: "/" },
    { name: "requests", path: "/requests" },
    { name: "new-request", path: "/requests/new" },
    { name: "request", path: `/requests/${requestId}` },
    { name: "staff", path: "/staff" },
    { name: "audit", path: "/audit" },
    { name: "payments", path: "/payments" },
    { name: "campaigns", path: "/campaigns" },
    { name: "new-campaign", path: "/campaigns/new" },
    { name: "deliveries", path: "/webhooks" },
    { name: "account", path: "/account" },
    { name: "not-found", path: "/no-such-page" },
  ];
  const payments = await page.request.get(`${BASE_URL}/api/payments`);
  const first = ((await payments.json()) as { data: { items: { uuid: string }[] } }).data.items[0];
  if (first) list.push({ name: "payment", path: `/payments/${first.uuid}` });
  return list;
}

for (const width of [1280, 375]) {
  test(`every page at ${width} px: no serious accessibility violation, nothing overflows, screenshot saved`, async ({ page }) => {
    mkdirSync("test-results/screenshots", { recursive: true });
    await page.setViewportSize({ width, height: 900 });
    for (const { name, path } of await pages(page)) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `${name} at ${width}`,
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} overflows at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
    }
  });
}

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("the sign-in page passes axe at both widths", async ({ page }) => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/sign-in");
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
      await page.screenshot({ path: `test-results/screenshots/sign-in-${width}.png`, fullPage: true });
    }
  });
});

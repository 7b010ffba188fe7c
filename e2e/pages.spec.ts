// The one page the desk walk (desk-walk.spec.ts: every page under app/ at 1280 and 375 px, sign-in signed out) does
// not reach: the not-found page, signed in. Its screenshots land in test-results/screenshots.
import { mkdirSync } from "node:fs";

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

const WIDTHS = [1280, 375] as const;

/** No serious or critical axe finding, nothing wider than the window, and a screenshot saved. */
async function checkPage(page: Page, name: string, width: number): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `${name} at ${width}`,
  ).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} overflows at ${width} px`).toBeLessThanOrEqual(0);
  mkdirSync("test-results/screenshots", { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
}

test("an unknown address answers 404 with the not-found page, axe clean at both widths", async ({ page }) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const answer = await page.goto("/no-such-page");
    expect(answer?.status()).toBe(404);
    await expect(page.locator("h1").first()).toHaveText(/not found/i);
    await checkPage(page, "not-found", width);
  }
});

import { mkdirSync } from "node:fs";

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

import { DEV_API_KEY } from "../lib/config/dev-key";
import { concretePath, pagePatterns, type RealIds } from "../tests/support/app-paths";
import { payload } from "../tests/support/payloads";
import { signedHeaders } from "../tests/support/sign-delivery";
import { BASE_URL } from "./support";

test.describe.configure({ mode: "serial" });

/** What each page is called in its screenshot's file name: its path, "/" and "[param]" spelled out. */
function nameOf(pattern: string): string {
  return pattern === "/"
    ? "overview"
    : pattern
        .slice(1)
        .replace(/\[(\w+)\]/g, "by-$1")
        .replace(/\//g, "-");
}

/**
 * Every page under app/ (each page.tsx, walked: a new page cannot be missed), each [param] a real id of its kind
 * made fresh here (a request, its payer, a payment, a campaign), and the not-found page. Sign-in is for the signed-out, below.
 */
async function pages(page: Page): Promise<{ list: { name: string; path: string }[]; done(): Promise<void> }> {
  const made = await page.request.post(`${BASE_URL}/api/requests`, {
    headers: { Origin: BASE_URL },
    data: { tag: "accept.auto", amount: "88.80", description: "Page tour", idempotencyKey: `tour${Date.now()}` },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;
  const delivered = payload({ description: "Page tour" });
  const body = JSON.stringify(delivered);
  const recorded = await page.request.post(`${BASE_URL}/api/webhooks/peer-transfer`, { data: body, headers: signedHeaders(body, DEV_API_KEY) });
  expect(recorded.status(), await recorded.text()).toBe(200);
  const campaign = await page.request.post(`${BASE_URL}/api/campaigns`, {
    headers: { Origin: BASE_URL },
    multipart: {
      name: "Page tour",
      file: { name: "tour.csv", mimeType: "text/csv", buffer: Buffer.from("tag,amount,description\ntour.person,25,Page tour\n") },
    },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { data: { id: string } }).data.id;
  // A weekly plan of one member who waits, started in January: its board has columns; nothing is sent before its next period's time.
  const plan = await page.request.post(`${BASE_URL}/api/plans`, {
    headers: { Origin: BASE_URL },
    multipart: {
      name: "Page tour plan",
      file: { name: "tour.csv", mimeType: "text/csv", buffer: Buffer.from("tag,amount\ntour.member,25\n") },
      frequency: "weekly",
      day: "1",
      sendAt: "09:00",
      startsOn: "2026-01-05",
      descriptionTemplate: "{period} page tour",
    },
  });
  expect(plan.status(), await plan.text()).toBe(201);
  const planId = ((await plan.json()) as { data: { id: string } }).data.id;
  // No page takes a staff or session id; were one to, concretePath fails for the empty id rather than visit a wrong one.
  // The request's person is a payer from the moment they are asked.
  const ids: RealIds = {
    request: requestId,
    payment: delivered.uuid,
    campaign: campaignId,
    payer: "accept.auto",
    plan: planId,
    staff: "",
    session: "",
    exception: "",
  };
  const patterns = pagePatterns().filter((p) => p !== "/sign-in");
  expect(patterns).toEqual(
    expect.arrayContaining([
      "/account",
      "/campaigns",
      "/campaigns/[id]",
      "/campaigns/new",
      "/payers/[tag]",
      "/payments/[uuid]",
      "/plans",
      "/plans/[id]",
      "/plans/new",
      "/requests/[id]",
    ]),
  );
  return {
    list: [...patterns.map((p) => ({ name: nameOf(p), path: concretePath(p, ids) })), { name: "not-found", path: "/no-such-page" }],
    // Discarded after the tour: the admin's drafts are capped at 20, which other specs' uploads need room under.
    async done() {
      const cancelled = await page.request.post(`${BASE_URL}/api/campaigns/${campaignId}/cancel`, { headers: { Origin: BASE_URL } });
      expect(cancelled.status(), await cancelled.text()).toBe(200);
    },
  };
}

for (const width of [1280, 375]) {
  test(`every page at ${width} px: no serious accessibility violation, nothing overflows, screenshot saved`, async ({ page }) => {
    mkdirSync("test-results/screenshots", { recursive: true });
    await page.setViewportSize({ width, height: 900 });
    const tour = await pages(page);
    // A budget per page (axe and a full-page screenshot take seconds each on a busy 2-core machine), not one for all.
    test.setTimeout(20_000 + 8_000 * tour.list.length);
    for (const { name, path } of tour.list) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      // The page itself, not its "not found" (a detail page given an id of the wrong kind shows that, with a heading too).
      if (name !== "not-found") await expect(page.locator("h1").first(), `${name} (${path})`).not.toHaveText(/not found/i);
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
    await tour.done();
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

// A finance newcomer's walk through every dashboard page under app/ (checked against the folders, so a new page is
// walked) at a laptop's and a phone's width (issue 21, "Phone and tables"): axe finds nothing at WCAG 2 A/AA, no page
// scrolls sideways, the phone's menu button opens the navigation, the current page is marked, the skip link comes
// first, and a long tag stays on one line. Screenshots for the docs. The not-found page: pages.spec.ts.
import { mkdirSync } from "node:fs";

import AxeBuilder from "@axe-core/playwright";
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";

import { DEV_API_KEY } from "@/lib/config/dev-key";
import { pagePatterns } from "../tests/support/app-paths";
import { payload } from "../tests/support/payloads";
import { deliverySignature } from "../tests/support/sign-delivery";
import { ADMIN_STATE, BASE_URL } from "./support";
import { AXE_TAGS } from "./axe";

test.describe.configure({ mode: "serial" });

const LONG_TAG = "a.very.long.tag.name";
// Screenshots for a change's notes (docs/screenshots): only when asked, so a test run leaves the committed files alone.
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;
const VIEWPORTS = [
  { name: "laptop", width: 1280, height: 800 },
  { name: "phone", width: 375, height: 812 },
] as const;

interface Made {
  requestId: string;
  paymentUuid: string;
  campaignId: string;
  planId: string;
  payPageId: string;
}

/**
 * A request, a payment from the long tag (a signed delivery, as the service sends it), a draft campaign with that tag,
 * a plan and a pay page.
 */
async function makeData(api: APIRequestContext): Promise<Made> {
  const made = await api.post("/api/requests", {
    headers: { Origin: BASE_URL },
    data: { tag: "accept.walk", amount: "1250.00", description: "Desk walk", idempotencyKey: `walk${Date.now()}` },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { requestId } = ((await made.json()) as { data: { requestId: string } }).data;

  const body = payload({ description: "Desk walk dues" });
  const customer = { ...body.customer, name: "Adaeze Okonkwo-Bello", tag: LONG_TAG, email: "adaeze.okonkwo-bello@members.example.com" };
  const text = JSON.stringify({ ...body, customer, meta: { peer_tag: LONG_TAG, name: customer.name } });
  const delivered = await api.post("/api/webhooks/peer-transfer", {
    data: Buffer.from(text),
    headers: { "content-type": "application/json", "x-service-signature": deliverySignature(text, DEV_API_KEY) },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);

  const csv = ["tag,amount,description", `${LONG_TAG},5000,December dues`, "accept.walk1,5000,December dues", "tunde.bakare,7500,December dues + levy"].join(
    "\n",
  );
  const campaign = await api.post("/api/campaigns", {
    headers: { Origin: BASE_URL },
    multipart: { name: "December dues", file: { name: "dues.csv", mimeType: "text/csv", buffer: Buffer.from(`${csv}\n`) } },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { data: { id: string } }).data.id;

  // A monthly plan with the long tag among its members (nothing is asked until a period is due or run).
  const plan = await api.post("/api/plans", {
    headers: { Origin: BASE_URL },
    multipart: {
      name: "Estate dues",
      file: { name: "roster.csv", mimeType: "text/csv", buffer: Buffer.from(`tag,amount\n${LONG_TAG},5000\ntunde.bakare,7500\n`) },
      frequency: "monthly",
      day: "1",
      sendAt: "09:00",
      startsOn: "2026-01-01",
      descriptionTemplate: "{period} estate dues",
    },
  });
  expect(plan.status(), await plan.text()).toBe(201);
  const planId = ((await plan.json()) as { data: { id: string } }).data.id;

  // A pay page with a range and a question (its own address each run: an address is taken for good).
  const payPage = await api.post("/api/pay-pages", {
    headers: { Origin: BASE_URL },
    data: {
      slug: `walk-${Date.now().toString(36)}`,
      title: "Estate gate levy",
      amount: { min: "1000", max: "50000" },
      fields: [{ label: "Flat number", required: true, reference: true }],
    },
  });
  expect(payPage.status(), await payPage.text()).toBe(201);
  const payPageId = ((await payPage.json()) as { data: { id: string } }).data.id;
  return { requestId, paymentUuid: body.uuid, campaignId, planId, payPageId };
}

/**
 * Every dashboard page (`pattern` its folder under app/, checked below against the pages there, so a new page cannot
 * be missed); `nav` is the link marked current: `exact` for its own page, else its section's.
 */
function dashboardPages(made: Made): { name: string; pattern: string; path: string; nav: { label: string; exact: boolean } | null }[] {
  return [
    { name: "home", pattern: "/", path: "/", nav: { label: "Overview", exact: true } },
    { name: "payments", pattern: "/payments", path: "/payments", nav: { label: "Payments", exact: true } },
    { name: "payment", pattern: "/payments/[uuid]", path: `/payments/${made.paymentUuid}`, nav: { label: "Payments", exact: false } },
    { name: "requests", pattern: "/requests", path: "/requests", nav: { label: "Requests", exact: true } },
    { name: "new-request", pattern: "/requests/new", path: "/requests/new", nav: { label: "New request", exact: true } },
    { name: "request", pattern: "/requests/[id]", path: `/requests/${made.requestId}`, nav: { label: "Requests", exact: false } },
    { name: "campaigns", pattern: "/campaigns", path: "/campaigns", nav: { label: "Campaigns", exact: true } },
    { name: "new-campaign", pattern: "/campaigns/new", path: "/campaigns/new", nav: { label: "Campaigns", exact: false } },
    { name: "campaign", pattern: "/campaigns/[id]", path: `/campaigns/${made.campaignId}`, nav: { label: "Campaigns", exact: false } },
    { name: "plans", pattern: "/plans", path: "/plans", nav: { label: "Plans", exact: true } },
    { name: "new-plan", pattern: "/plans/new", path: "/plans/new", nav: { label: "Plans", exact: false } },
    { name: "plan", pattern: "/plans/[id]", path: `/plans/${made.planId}`, nav: { label: "Plans", exact: false } },
    { name: "pay-pages", pattern: "/pay-pages", path: "/pay-pages", nav: { label: "Pay pages", exact: true } },
    { name: "pay-page-poster", pattern: "/pay-pages/[id]/poster", path: `/pay-pages/${made.payPageId}/poster`, nav: { label: "Pay pages", exact: false } },
    { name: "payers", pattern: "/payers", path: "/payers", nav: { label: "Payers", exact: true } },
    { name: "payer", pattern: "/payers/[tag]", path: `/payers/${LONG_TAG}`, nav: { label: "Payers", exact: false } },
    { name: "exceptions", pattern: "/exceptions", path: "/exceptions", nav: { label: "Exceptions", exact: true } },
    { name: "reports", pattern: "/reports", path: "/reports", nav: { label: "Day book", exact: true } },
    { name: "staff", pattern: "/staff", path: "/staff", nav: { label: "Staff", exact: true } },
    { name: "audit", pattern: "/audit", path: "/audit", nav: { label: "Audit log", exact: true } },
    { name: "webhooks", pattern: "/webhooks", path: "/webhooks", nav: { label: "Deliveries", exact: true } },
    { name: "account", pattern: "/account", path: "/account", nav: { label: "Account", exact: true } },
    // Reached from the header's bell, not the menu: no menu link is marked.
    { name: "notifications", pattern: "/notifications", path: "/notifications", nav: null },
    // Reached from the Deliveries page (the menu is one line at 1280 px): no menu link is marked.
    { name: "developers-webhooks", pattern: "/developers/webhooks", path: "/developers/webhooks", nav: null },
    // Reached from Outgoing webhooks and from each other, never from the menu.
    { name: "developers-api-keys", pattern: "/developers/api-keys", path: "/developers/api-keys", nav: null },
    { name: "developers-api", pattern: "/developers/api", path: "/developers/api", nav: null },
  ];
}

async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.impact ?? "?"}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe at ${where}`,
  ).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
}

/** The long tag's element is one line high and shows the whole tag (not cut, not broken). */
async function expectTagOnOneLine(page: Page, where: string): Promise<void> {
  const tag = page.locator(`[data-one-line][title="@${LONG_TAG}"]`).first();
  await expect(tag).toBeVisible();
  const box = await tag.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight),
    cut: el.scrollWidth > el.clientWidth,
  }));
  expect(Math.abs(box.height - box.lineHeight), `@${LONG_TAG} is broken across lines at ${where}`).toBeLessThan(1);
  expect(box.cut, `@${LONG_TAG} is cut short at ${where}`).toBe(false);
}

let made: Made;

test.beforeAll(async () => {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: ADMIN_STATE });
  made = await makeData(api);
  await api.dispose();
  if (SCREENSHOTS) mkdirSync(SCREENSHOTS, { recursive: true });
});

test("the walk visits every page under app/ (sign-in is walked signed out, below; the public pay pages in pay-pages.spec.ts)", () => {
  const walked = dashboardPages(made).map((p) => p.pattern);
  expect([...walked].sort()).toEqual(pagePatterns().filter((p) => p !== "/sign-in" && !p.startsWith("/pay/")));
});

for (const viewport of VIEWPORTS) {
  test(`every page at ${viewport.width} px: axe, no sideways scroll, marked navigation, skip link`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const phone = viewport.width < 768;
    let menuAxed = false;
    for (const { name, path, nav } of dashboardPages(made)) {
      const where = `${path} at ${viewport.width} px`;
      await page.goto(path);
      await expect(page.locator("h1").first(), where).toBeVisible();
      // The page itself, not its "not found" (a detail page given an id of the wrong kind shows that, with a heading too).
      await expect(page.locator("h1").first(), where).not.toHaveText(/not found/i);
      // Hydrated: the live stream is open (its component mounted).
      await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");

      await expectNoAxeViolations(page, where);
      await expectNoSidewaysScroll(page, where);
      // Before any focus ring: a phone's whole page (its cards), a laptop's first screen.
      if (SCREENSHOTS && (name === "home" || name === "payments" || name === "campaign")) {
        await page.screenshot({ path: `${SCREENSHOTS}/${name}-${viewport.width}.png`, fullPage: phone });
      }

      // The current page's link, and only it, is marked.
      const links = page.getByRole("navigation", { name: "Main", includeHidden: true }).getByRole("link", { includeHidden: true });
      // Exceptions carries its open count beside the word ("Exceptions3", "Exceptions999+").
      if (nav) {
        const current = links.filter({ hasText: new RegExp(`^${nav.label}([\\d,]+\\+?)?$`) });
        await expect(current, where).toHaveAttribute("aria-current", nav.exact ? "page" : "true");
      }
      await expect(page.locator('nav[aria-label="Main"] [aria-current]'), where).toHaveCount(nav ? 1 : 0);

      // The first Tab after the page loads reaches the skip link, which moves focus into the page.
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to main content" });
      await expect(skip, where).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(page.locator("main#main"), where).toBeFocused();

      // The menu: a button on a phone, which opens the navigation; a row of links on a laptop.
      const menu = page.getByRole("button", { name: "Menu" });
      const mainNav = page.getByRole("navigation", { name: "Main" });
      if (phone) {
        await expect(mainNav).toBeHidden();
        await expect(menu).toHaveAttribute("aria-expanded", "false");
        await expect(menu).toHaveAttribute("aria-controls", "main-menu");
        await menu.click();
        await expect(menu).toHaveAttribute("aria-expanded", "true");
        await expect(mainNav).toBeVisible();
        // The open menu is one component, the same on every page: axe reads it once a tour (each run costs seconds).
        if (!menuAxed) await expectNoAxeViolations(page, `${where}, menu open`);
        menuAxed = true;
        await expectNoSidewaysScroll(page, `${where}, menu open`);
        await page.keyboard.press("Escape");
        await expect(menu).toHaveAttribute("aria-expanded", "false");
        await expect(mainNav).toBeHidden();
      } else {
        await expect(menu).toBeHidden();
        await expect(mainNav).toBeVisible();
      }

      if (name === "payments" || name === "campaign") await expectTagOnOneLine(page, where);
    }
  });
}

test("on a phone the menu closes after a navigation, and a list shows amount and status first", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/payments`);
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

  // Each row is a card: its amount and verification come before when and from whom.
  const row = page.locator(`[data-testid="payment-row"][data-uuid="${made.paymentUuid}"]`);
  const top = (label: string) => row.locator(`td[data-label="${label}"]`).evaluate((el) => el.getBoundingClientRect().top);
  const [amount, verification, received, customer] = [await top("Amount"), await top("Verification"), await top("Received"), await top("Customer")];
  expect(amount).toBeLessThan(verification);
  expect(verification).toBeLessThan(received);
  expect(received).toBeLessThan(customer);
  await expect(row.locator('td[data-label="Amount"]')).toBeVisible();

  // A campaign's rows: amount and status first, every tag whole.
  await page.goto(`/campaigns/${made.campaignId}`);
  const line = page.getByTestId("campaign-row-line").first();
  // The rows come after the preview: measure once they are laid out (a row not yet shown measures 0 everywhere).
  await expect(line.locator('td[data-label="Tag"]')).toBeVisible();
  const rowTop = (label: string) => line.locator(`td[data-label="${label}"]`).evaluate((el) => el.getBoundingClientRect().top);
  expect(await rowTop("Amount")).toBeLessThan(await rowTop("Tag"));
  expect(await rowTop("Status")).toBeLessThan(await rowTop("Tag"));
});

test("at 1280 px the overview's recent requests are not cut off", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const table = page.getByRole("region", { name: "Fund requests" });
  await expect(table.getByTestId("request-row").first()).toBeVisible();
  const { scrollWidth, clientWidth } = await table.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, "the recent requests table scrolls sideways at 1280 px").toBeLessThanOrEqual(clientWidth);
});

test("at 1280 px an admin's navigation is one line of links, under the brand and the account", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  const tops = await nav.getByRole("link").evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
  // Every link of an admin's menu (the longest), the exceptions badge included.
  expect(tops.length).toBeGreaterThanOrEqual(13);
  expect(new Set(tops).size, `the links start at ${[...new Set(tops)].join(", ")} px: more than one line`).toBe(1);
  const brandTop = await page.getByRole("link", { name: "Fundboard" }).evaluate((el) => el.getBoundingClientRect().bottom);
  expect(tops[0]).toBeGreaterThanOrEqual(brandTop);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("the sign-in page passes axe and does not scroll sideways at both widths", async ({ page }) => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto("/sign-in");
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
      await expectNoAxeViolations(page, `/sign-in at ${viewport.width} px`);
      await expectNoSidewaysScroll(page, `/sign-in at ${viewport.width} px`);
    }
  });
});

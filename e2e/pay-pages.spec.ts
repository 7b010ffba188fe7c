import { expect, test } from "@playwright/test";

import { fakeAddress } from "../tests/support/sign-in";
import { expectAxeClean } from "./axe";
import { makePayPage } from "./pay-support";
import { ADMIN_STATE, SANDBOX_URL, uniqueTag } from "./support";

// Issue 42: a payer opens a pay page from its QR code's address on a phone, proves they are a person, types their tag,
// approves in the sandbox app and sees "paid"; the page's counts move (docs/architecture.md "Pay pages").

test.use({ storageState: ADMIN_STATE });

interface PayPageView {
  url: string;
  counts: { views: number; submissions: number; requests: number; accepted: number; collected: string };
}

test("a payer pays through a pay page at 375 px, and the page's counts move", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { id } = await makePayPage(request, {
    title: "Estate dues",
    amount: { fixed: "2500" },
    fields: [{ label: "House number", required: true, reference: true }],
  });
  const before = ((await (await request.get(`/api/pay-pages/${id}`)).json()) as { data: PayPageView }).data;
  const qr = await request.get(`/api/pay-pages/${id}/qr.svg`);
  expect(qr.headers()["content-type"]).toContain("image/svg+xml");
  expect((await qr.text()).startsWith("<svg") || (await qr.text()).includes("<svg")).toBe(true);

  // The payer: a phone, no session, an address of their own.
  const phone = await browser.newContext({
    viewport: { width: 375, height: 812 },
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": fakeAddress() },
  });
  const page = await phone.newPage();
  await page.goto(before.url);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Estate dues");
  await expectAxeClean(page, "the pay page at 375 px");
  const tag = uniqueTag("paypage");
  await page.getByLabel("Your tag").fill(tag);
  await page.getByLabel("House number").fill("B14");
  await expect(page.getByRole("status").filter({ hasText: "Ready" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Pay ₦2,500.00" }).click();
  await expect(page).toHaveURL(/\/pay\/[a-z0-9-]+\/s\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve ₦2,500.00 in your app");
  await expectAxeClean(page, "the status page at 375 px");

  // The consumer app: the request reaches the tag (sent by the job, on the public share of the budget), and is approved.
  const app = await phone.newPage();
  await expect
    .poll(
      async () => {
        await app.goto(`${SANDBOX_URL}/?tag=${encodeURIComponent(tag)}`);
        return app.getByRole("button", { name: /^Accept request/ }).count();
      },
      { timeout: 60_000, intervals: [500, 1_000, 2_000] },
    )
    .toBe(1);
  await expect(app.getByText("Estate dues")).toBeVisible();
  await app.getByRole("button", { name: /^Accept request/ }).click();

  // The status page moves by itself.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paid, thank you.", { timeout: 30_000 });
  const after = ((await (await request.get(`/api/pay-pages/${id}`)).json()) as { data: PayPageView }).data;
  expect(after.counts.views).toBeGreaterThan(before.counts.views);
  // Collected is what settled after the service's fee (1%), as everywhere in the dashboard.
  expect(after.counts).toMatchObject({ submissions: 1, requests: 1, accepted: 1, collected: "2475.00" });
  await phone.close();
});

test("a page turned off says so and sends nothing", async ({ browser, request }) => {
  const { id, slug } = await makePayPage(request, { active: false });
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, storageState: { cookies: [], origins: [] } });
  const page = await phone.newPage();
  await page.goto(`/pay/${slug}`);
  await expect(page.getByText("This page is not taking payments right now.")).toBeVisible();
  await expect(page.getByLabel("Your tag")).toHaveCount(0);
  await expectAxeClean(page, "a closed pay page at 375 px");
  const view = ((await (await request.get(`/api/pay-pages/${id}`)).json()) as { data: PayPageView }).data;
  expect(view.counts.submissions).toBe(0);
  await phone.close();
});

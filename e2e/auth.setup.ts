import { mkdirSync } from "node:fs";

import { expect, test as setup } from "@playwright/test";

import { ADMIN_STATE, DEMO_ADMIN } from "./support";

setup("sign in as the demo admin through the form", async ({ page }) => {
  mkdirSync("e2e/.auth", { recursive: true });
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2F$/);
  await page.getByLabel("E-mail").fill(DEMO_ADMIN.email);
  await page.getByLabel("Password").fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toContainText("(admin)");
  await page.context().storageState({ path: ADMIN_STATE });
});

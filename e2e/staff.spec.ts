import { expect, test } from "@playwright/test";

import { fakeAddress as fakeClientIp } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession, uniqueEmail } from "./support";

test("an admin adds a staff member, changes the role, and disables the account, which stops its session at once", async ({ page, browser }) => {
  const email = uniqueEmail("newcomer");
  await page.goto("/staff");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Name").fill("New Comer");
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByLabel("Initial password").fill("newcomer-password");
  await page.getByRole("button", { name: "Add staff member" }).click();
  await expect(page.getByText(`Account created for ${email}.`)).toBeVisible();
  const row = page.getByTestId("staff-row").filter({ hasText: email });
  await expect(row).toContainText("Active");

  // The newcomer signs in elsewhere.
  const theirs = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
  const theirPage = await theirs.newPage();
  await theirPage.goto("/sign-in");
  await theirPage.getByLabel("E-mail").fill(email);
  await theirPage.getByLabel("Password").fill("newcomer-password");
  await theirPage.getByRole("button", { name: "Sign in" }).click();
  await expect(theirPage.getByTestId("signed-in-as")).toContainText("(viewer)");
  await expect(theirPage.getByRole("link", { name: "Staff" })).toHaveCount(0);

  await row.getByLabel(`Role for ${email}`).selectOption("operator");
  await expect(row.getByLabel(`Role for ${email}`)).toHaveValue("operator");
  // A role change signs the person out everywhere (DESIGN §11); they sign in again under the new role.
  await theirPage.reload();
  await expect(theirPage).toHaveURL(/\/sign-in/);
  await theirPage.getByLabel("E-mail").fill(email);
  await theirPage.getByLabel("Password").fill("newcomer-password");
  await theirPage.getByRole("button", { name: "Sign in" }).click();
  await expect(theirPage.getByTestId("signed-in-as")).toContainText("(operator)");

  await row.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(row).toContainText("Disabled");
  await theirPage.reload();
  await expect(theirPage).toHaveURL(/\/sign-in/);
  expect((await theirs.request.get(`${BASE_URL}/api/staff`)).status()).toBe(401);
  await theirs.close();

  // The audit log says it in words and links the account (lib/audit/words.ts); the filter offers the same words.
  await page.goto("/audit?action=staff.disabled");
  const disabled = page.getByTestId("audit-row").filter({ hasText: email });
  await expect(disabled).toHaveCount(1);
  await expect(disabled).toContainText("Disabled New Comer’s account");
  await expect(disabled.getByTestId("audit-target")).toHaveAttribute("href", "/staff");
  await expect(page.getByLabel("Action").locator("option:checked")).toHaveText("Disabled an account");
  await page.goto("/audit?action=staff.role_changed");
  await expect(page.getByTestId("audit-row").filter({ hasText: email })).toContainText("Changed New Comer’s role from viewer to operator");
});

test("the staff form shows field errors inline", async ({ page }) => {
  await page.goto("/staff");
  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByRole("button", { name: "Add staff member" }).click();
  await expect(page.locator("#staff-email-error")).toHaveText("Enter an e-mail address, like name@company.com");
  await expect(page.locator("#staff-name-error")).toHaveText("Enter the person's name");
  await expect(page.locator("#staff-password-error")).toHaveText("At least 10 characters");
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
});

test("an operator and a viewer cannot open admin pages", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  for (const role of ["operator", "viewer"] as const) {
    const person = await createStaff(admin, role);
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
    const page = await context.newPage();
    await page.goto("/sign-in?callbackUrl=%2Fstaff");
    await page.getByLabel("E-mail").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    await page.goto("/audit");
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    await expect(page.getByTestId("audit-row")).toHaveCount(0);
    await context.close();
  }
  await admin.dispose();
});

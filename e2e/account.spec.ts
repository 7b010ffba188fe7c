import { expect, test, type Browser, type BrowserContext } from "@playwright/test";

import { fakeAddress } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession } from "./support";
import { turnOnTwoStep } from "./two-step-support";

function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
}

test("a person changes their password on /account; their other sessions are signed out", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const person = await createStaff(admin, "viewer");
  await admin.dispose();
  const elsewhere = await newSession(person.email, person.password);
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto("/sign-in?callbackUrl=%2Faccount");
    await page.getByLabel("E-mail").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();

    const newPassword = "a-brand-new-password";
    await page.getByLabel("Current password").fill(person.password);
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("New password again").fill(`${newPassword}x`);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.locator("#confirmNewPassword-error")).toHaveText("The two new passwords do not match; type the same one twice");

    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password again").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.locator("#currentPassword-error")).toHaveText("That is not your current password");
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Current password").fill(person.password);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("password-message")).toHaveText("Password changed. 1 other session was signed out; this one stays signed in.");
    expect((await elsewhere.get("/api/me")).status(), "the other session is ended").toBe(401);
    expect((await context.request.get(`${BASE_URL}/api/me`)).status(), "this one stays").toBe(200);
    const again = await newSession(person.email, newPassword);
    await again.dispose();
  } finally {
    await context.close();
    await elsewhere.dispose();
  }
});

test("an account an admin made must choose its own password at first sign-in before anything else opens", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const email = `first.${Date.now().toString(36)}@e2e.test`;
  const given = "the-admins-choice-1";
  const made = await admin.post("/api/staff", { data: { email, name: "First Sign-in", role: "operator", password: given }, headers: { Origin: BASE_URL } });
  expect(made.status(), await made.text()).toBe(201);
  await admin.dispose();
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto("/sign-in?callbackUrl=%2Fpayments");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(given);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Sent to the account page, not where they were going; every other page and route is closed.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId("choose-password-banner")).toBeVisible();
    await page.goto("/requests");
    await expect(page).toHaveURL(/\/account$/);
    const refused = await page.request.get("/api/payments");
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Choose your own password first/);

    // The admin's password again is refused; one of their own opens the dashboard at once.
    await page.getByLabel("Current password").fill(given);
    await page.getByLabel("New password", { exact: true }).fill(given);
    await page.getByLabel("New password again").fill(given);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("choose-password-banner")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("only-i-know-this-1");
    await page.getByLabel("New password again").fill("only-i-know-this-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("choose-password-banner")).toHaveCount(0);
    await page.goto("/requests");
    await expect(page.getByRole("heading", { level: 1, name: "Requests" })).toBeVisible();
    expect((await page.request.get("/api/payments")).status()).toBe(200);
  } finally {
    await context.close();
  }
});

test("an admin resets a person's two-step sign-in from the staff page", async ({ page }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const person = await createStaff(admin, "operator");
  await admin.dispose();
  const theirs = await newSession(person.email, person.password);
  try {
    await turnOnTwoStep(theirs, person.password);
    await page.goto("/staff");
    const row = page.getByTestId("staff-row").filter({ hasText: person.email });
    await expect(row).toContainText("On");
    page.once("dialog", (dialog) => {
      expect(dialog.message()).toContain(person.email);
      void dialog.accept();
    });
    await row.getByRole("button", { name: `Reset two-step sign-in for ${person.email}` }).click();
    await expect(row.getByRole("status")).toHaveText(`Two-step sign-in removed for ${person.email}; 1 session signed out.`);
    await expect(row).toContainText("Off");
    await expect(row.getByRole("button", { name: `Reset two-step sign-in for ${person.email}` })).toHaveCount(0);
    expect((await theirs.get("/api/me")).status(), "their session ended with the reset").toBe(401);
  } finally {
    await theirs.dispose();
  }
});

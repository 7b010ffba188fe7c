import { expect, test } from "@playwright/test";

import { fakeAddress as fakeClientIp } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession } from "./support";

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("every dashboard page sends you to sign-in and back to where you were going", async ({ page }) => {
    for (const path of ["/", "/staff", "/audit"]) {
      await page.goto(path);
      await expect(page).toHaveURL(`${BASE_URL}/sign-in?callbackUrl=${encodeURIComponent(path)}`);
    }
    // Sandbox mode tells a newcomer how to get in.
    await expect(page.getByTestId("demo-account")).toContainText(`${DEMO_ADMIN.email} with the password ${DEMO_ADMIN.password}`);
    await page.getByLabel("E-mail").fill(DEMO_ADMIN.email);
    await page.getByLabel("Password").fill(DEMO_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/audit`);
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  });

  test("wrong credentials get a clear message and no session", async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("E-mail").fill(DEMO_ADMIN.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("form-error")).toHaveText("That e-mail and password do not match an active account. Check them and try again.");
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await context.cookies()).some((c) => c.name.includes("session-token"))).toBe(false);
    await context.close();
  });

  test("a forged next.js sub-request header does not skip the checks", async ({ request }) => {
    const headers = { "x-middleware-subrequest": "proxy:proxy:proxy:proxy:proxy", "x-middleware-subrequest-id": "x" };
    expect((await request.get("/api/staff", { headers })).status()).toBe(401);
    const page = await request.get("/staff", { headers, maxRedirects: 0 });
    expect(page.status()).toBe(307);
    expect(page.headers().location).toContain("/sign-in");
  });
});

test("sign-out ends the session", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const viewer = await createStaff(admin, "viewer");
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toContainText("(viewer)");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
  await admin.dispose();
});

test("a signed-in visit to sign-in never redirects off the dashboard, whatever callbackUrl says", async ({ request }) => {
  // What a review reproduced: a backslash, a tab and CR LF after the first slash, and the classics.
  for (const target of ["/%5Cevil.example", "/%09/evil.example", "/%0d%0a/evil.example", "//evil.example", "https://evil.example/", "/%2F%2Fevil.example"]) {
    const response = await request.get(`/sign-in?callbackUrl=${target}`, { maxRedirects: 0 });
    expect(response.status(), target).toBe(307);
    const location = new URL(response.headers().location ?? "", BASE_URL);
    expect(location.origin, target).toBe(BASE_URL);
    expect(location.pathname, target).toBe("/");
  }
  const fine = await request.get(`/sign-in?callbackUrl=${encodeURIComponent("/requests?status=pending")}`, { maxRedirects: 0 });
  expect(fine.headers().location).toMatch(/\/requests\?status=pending$/);
});

test("session cookie is httpOnly and SameSite=Lax", async ({ context }) => {
  const cookie = (await context.cookies()).find((c) => c.name.endsWith("authjs.session-token"));
  expect(cookie, "the admin storage state holds a session cookie").toBeTruthy();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
});

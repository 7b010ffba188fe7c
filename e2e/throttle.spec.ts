import { expect, test } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";

import { fakeAddress as fakeClientIp } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession, signInOverHttp } from "./support";

test.use({ storageState: { cookies: [], origins: [] } });

test("five failures for one e-mail lock it for a while with a clear message; others are unaffected", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const victim = await createStaff(admin, "viewer");
  await admin.dispose();

  for (let i = 0; i < 5; i++) {
    // Each from a different address: the per-e-mail limit must hold on its own.
    const ctx = await playwrightRequest.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] } });
    const res = await signInOverHttp(ctx, victim.email, `wrong-${i}`, { "x-forwarded-for": fakeClientIp() });
    expect(res.headers().location).toContain("code=invalid");
    await ctx.dispose();
  }

  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(victim.email);
  // Even the right password is refused while locked.
  await page.getByLabel("Password").fill(victim.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText(/^Too many attempts\. Try again in 1[45] minutes\.$/);
  await context.close();

  // Another account from another address still signs in.
  const other = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  await other.dispose();
});

test("five failures from one address lock that address; another account's success in between clears nothing", async () => {
  const ip = fakeClientIp();
  const ctx = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": ip },
  });
  for (let i = 0; i < 4; i++) {
    const res = await signInOverHttp(ctx, `nobody${i}@e2e.test`, "whatever-password");
    expect(res.headers().location).toContain("code=invalid");
  }
  // A success clears that e-mail's failures only, not the address's…
  const ok = await signInOverHttp(ctx, DEMO_ADMIN.email, DEMO_ADMIN.password);
  expect(ok.headers().location ?? "").not.toContain("error=");
  const fifth = await signInOverHttp(ctx, "someone@e2e.test", "whatever-password");
  expect(fifth.headers().location).toContain("code=invalid");
  // …so the sixth attempt from the address is refused with the wait, even with the right password.
  for (const [email, password] of [
    ["someone-else@e2e.test", "whatever-password"],
    [DEMO_ADMIN.email, DEMO_ADMIN.password],
  ] as const) {
    const locked = await signInOverHttp(ctx, email, password);
    expect(locked.headers().location).toMatch(/code=throttled-1[45]/);
  }
  await ctx.dispose();
});

import { expect, test } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";

import { fakeAddress as fakeClientIp } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession, signInOverHttp } from "./support";

test.use({ storageState: { cookies: [], origins: [] } });

test("ten failures for one e-mail from many addresses lock it for a while with a clear message; others are unaffected", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const victim = await createStaff(admin, "viewer");
  await admin.dispose();

  for (let i = 0; i < 10; i++) {
    // Each from a different address: the per-account limit must hold on its own.
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

test("five failures of one account from an office's shared address lock that account there, not the office; another's success clears nothing", async () => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const mistyper = await createStaff(admin, "viewer");
  await admin.dispose();
  const ip = fakeClientIp();
  const ctx = await playwrightRequest.newContext({
    baseURL: BASE_URL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "x-forwarded-for": ip },
  });
  for (let i = 0; i < 4; i++) {
    const res = await signInOverHttp(ctx, mistyper.email, `wrong-${i}`);
    expect(res.headers().location).toContain("code=invalid");
  }
  // A colleague's success from the same address clears the colleague's failures only…
  const ok = await signInOverHttp(ctx, DEMO_ADMIN.email, DEMO_ADMIN.password);
  expect(ok.headers().location ?? "").not.toContain("error=");
  const fifth = await signInOverHttp(ctx, mistyper.email, "wrong-5");
  expect(fifth.headers().location).toContain("code=invalid");
  // …so the sixth attempt at that account from this address is refused with the wait, even with the right password…
  const locked = await signInOverHttp(ctx, mistyper.email, mistyper.password);
  expect(locked.headers().location).toMatch(/code=throttled-1[45]/);
  // …while the rest of the office, behind the same address, still signs in.
  const colleague = await signInOverHttp(ctx, DEMO_ADMIN.email, DEMO_ADMIN.password);
  expect(colleague.headers().location ?? "").not.toContain("error=");
  await ctx.dispose();
});

import { readFileSync } from "node:fs";

import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";

import { totpCode } from "../lib/auth/totp";
import { fakeAddress } from "../tests/support/sign-in";
import { BASE_URL, DEMO_ADMIN, createStaff, newSession, signInOverHttp } from "./support";
import { nextStepCode, turnOnTwoStep, wrongCode } from "./two-step-support";

const BAD_CODE = "That code is not right or was already used. Enter the code your app shows now, or a recovery code.";

/** A browser with no session, from its own pretend address (so its sign-ins never meet another test's throttle). */
function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
}

/** The sign-in form's first step. */
async function enterPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The form's code step: it appears after the password, and takes an app code or a recovery code. */
async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Code from your authenticator app").fill(code);
  await page.getByRole("button", { name: "Verify code" }).click();
}

/** Sets two-step sign-in up on /account as the page's person would: the secret read off the page, the code computed from it. */
async function setUpOnAccountPage(page: Page, password: string): Promise<string> {
  // The password first: a stolen session alone cannot turn two-step sign-in on.
  await page.getByLabel("Your password").fill("not-the-password");
  await page.getByRole("button", { name: "Set up two-step sign-in" }).click();
  await expect(page.locator("#setup-password-error")).toHaveText("That is not your current password");
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Set up two-step sign-in" }).click();
  const qr = page.getByTestId("totp-qr");
  await expect(qr).toBeVisible();
  // The QR code is a data: image: it only draws if the page's CSP allows it.
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const shown = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(shown, "the secret is shown in groups of four").toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  const secret = shown.replace(/\s+/g, "");
  const codeField = page.getByLabel("Enter the 6-digit code the app shows");

  await codeField.fill(wrongCode(secret));
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(page.locator("#enable-code-error")).toHaveText("That code does not match the one your app shows now");

  await codeField.fill(totpCode(secret, Date.now()));
  await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  return secret;
}

test("an operator sets up two-step sign-in, signs in with a code from then on, and ends a second device's session", async ({ browser }) => {
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const person = await createStaff(admin, "operator");
  await admin.dispose();
  const first = await freshContext(browser);
  const second = await freshContext(browser);
  try {
    const page = await first.newPage();
    await enterPassword(page, person.email, person.password);
    await expect(page.getByTestId("signed-in-as")).toContainText("(operator)");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/account`);
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    await expect(page.getByTestId("two-step-status")).toContainText("Off");

    const secret = await setUpOnAccountPage(page, person.password);
    await expect(page.getByTestId("recovery-code")).toHaveCount(10);
    await expect(page.getByText("These recovery codes are shown only once.")).toBeVisible();
    const recoveryCodes = await page.getByTestId("recovery-code").allTextContents();
    expect(
      recoveryCodes.every((c) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(c)),
      recoveryCodes.join(", "),
    ).toBe(true);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("fundboard-recovery-codes.txt");
    const file = readFileSync(await download.path(), "utf8");
    for (const code of recoveryCodes) expect(file).toContain(code);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByTestId("recovery-code")).toHaveCount(0);
    await expect(page.getByTestId("two-step-status")).toContainText("10 of 10 recovery codes left");

    // From now on the password alone is not enough.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await enterPassword(page, person.email, person.password);
    await expect(page.getByLabel("Code from your authenticator app")).toBeVisible();
    await expect(page.getByText(`Two-step sign-in is on for ${person.email}.`)).toBeVisible();
    await enterCode(page, wrongCode(secret));
    await expect(page.getByTestId("form-error")).toHaveText(BAD_CODE);
    await expect(page).toHaveURL(/\/sign-in/);
    // The code that enabled it is spent; the next step's code is a later one the server still accepts.
    await enterCode(page, nextStepCode(secret));
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(page.getByTestId("signed-in-as")).toContainText("(operator)");

    // A second device signs in with a recovery code instead.
    const other = await second.newPage();
    await enterPassword(other, person.email, person.password);
    await enterCode(other, recoveryCodes[0] ?? "");
    await expect(other.getByRole("heading", { name: "Overview" })).toBeVisible();

    // The first device sees both sessions and ends the other one.
    await page.goto("/account");
    const rows = page.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    const mine = rows.filter({ hasText: "This device" });
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText(/Chrome on \w+/);
    await expect(page.getByTestId("two-step-status")).toContainText("9 of 10 recovery codes left");
    await rows
      .filter({ hasNotText: "This device" })
      .getByRole("button", { name: /^Sign out / })
      .click();
    await expect(page.getByTestId("sessions-message")).toHaveText("That session is signed out.");
    await expect(rows).toHaveCount(1);

    await other.goto("/requests");
    await expect(other).toHaveURL(/\/sign-in/);
    // A recovery code is good once.
    await enterPassword(other, person.email, person.password);
    await enterCode(other, recoveryCodes[0] ?? "");
    await expect(other.getByTestId("form-error")).toHaveText(BAD_CODE);
    await expect(other).toHaveURL(/\/sign-in/);

    // Ten new recovery codes take the password and a code (an unused old recovery code will do), and replace all the old ones.
    const renew = page.getByRole("form", { name: "New recovery codes" });
    await renew.getByLabel("Your password").fill(person.password);
    await renew.getByLabel("Code from your authenticator app, or a recovery code").fill(recoveryCodes[1] ?? "");
    await renew.getByRole("button", { name: "Get new codes" }).click();
    await expect(page.getByText("Here are your new recovery codes. The old ones no longer work.")).toBeVisible();
    await expect(page.getByTestId("recovery-code")).toHaveCount(10);
    const renewed = await page.getByTestId("recovery-code").allTextContents();
    expect(
      renewed.filter((c) => recoveryCodes.includes(c)),
      "no old code comes back",
    ).toEqual([]);
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.getByTestId("two-step-status")).toContainText("10 of 10 recovery codes left");

    // Turning it off takes the password and a code: an old recovery code no longer counts, a new one does.
    const off = page.getByRole("form", { name: "Turn off two-step sign-in" });
    await off.getByLabel("Your password").fill(person.password);
    await off.getByLabel("Code from your authenticator app, or a recovery code").fill(recoveryCodes[2] ?? "");
    await off.getByRole("button", { name: "Turn off" }).click();
    await expect(page.locator("#disable-code-error")).toHaveText("That code does not match or was already used");
    await expect(page.getByTestId("two-step-status")).toContainText("10 of 10 recovery codes left");
    await off.getByLabel("Code from your authenticator app, or a recovery code").fill(renewed[0] ?? "");
    await off.getByRole("button", { name: "Turn off" }).click();
    await expect(page.getByTestId("two-step-status")).toContainText("Off");
    await expect(page.getByRole("button", { name: "Set up two-step sign-in" })).toBeVisible();
  } finally {
    await first.close();
    await second.close();
  }
});

test("while the team requires two-step sign-in, a viewer without it can open only /account until they set it up", async ({ browser }) => {
  const demo = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  // The admin who flips the setting has two-step sign-in, so the rule never locks them out of turning it off again.
  const adminPerson = await createStaff(demo, "admin");
  const viewer = await createStaff(demo, "viewer");
  await demo.dispose();
  const adminContext = await freshContext(browser);
  const viewerContext = await freshContext(browser);
  const signedIn = await signInOverHttp(adminContext.request, adminPerson.email, adminPerson.password);
  expect(signedIn.status(), "the admin's sign-in redirects").toBe(302);
  expect(signedIn.headers().location ?? "", "the admin signed in").not.toContain("error=");
  await turnOnTwoStep(adminContext.request, adminPerson.password);
  try {
    const adminPage = await adminContext.newPage();
    await adminPage.goto("/staff");
    const rule = adminPage.getByLabel("Require two-step sign-in for everyone");
    await expect(rule).not.toBeChecked();
    await rule.check();
    await expect(adminPage.getByTestId("team-settings-message")).toHaveText("Two-step sign-in is now required for everyone.");
    await expect(rule).toBeChecked();

    const page = await viewerContext.newPage();
    await enterPassword(page, viewer.email, viewer.password);
    await expect(page).toHaveURL(`${BASE_URL}/account`);
    await expect(page.getByTestId("enrol-banner")).toContainText("Your team requires two-step sign-in");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Account"]);
    await expect(page.getByRole("heading", { name: "Where you are signed in" })).toHaveCount(0);
    await page.goto("/");
    await expect(page).toHaveURL(`${BASE_URL}/account`);
    await page.goto("/payments");
    await expect(page).toHaveURL(`${BASE_URL}/account`);
    const refused = await viewerContext.request.get("/api/balance");
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("two-step sign-in");
    const me = (await (await viewerContext.request.get("/api/me")).json()) as { data: { mustEnrol: boolean } };
    expect(me.data.mustEnrol).toBe(true);

    // Setting it up opens everything again.
    await setUpOnAccountPage(page, viewer.password);
    await expect(page.getByTestId("recovery-code")).toHaveCount(10);
    await page.getByRole("link", { name: "I have saved them — continue to the overview" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    expect((await viewerContext.request.get("/api/balance")).status()).toBe(200);
  } finally {
    // Global: other specs must never see it on.
    const off = await adminContext.request.patch("/api/settings", { headers: { Origin: BASE_URL }, data: { require2fa: false } });
    expect(off.status(), await off.text()).toBe(200);
    expect(((await off.json()) as { data: { require2fa: boolean } }).data.require2fa).toBe(false);
    await adminContext.close();
    await viewerContext.close();
  }
});

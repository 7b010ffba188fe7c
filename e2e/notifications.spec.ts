import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";

import { fakeAddress } from "../tests/support/sign-in";
import { expectAxeClean } from "./axe";
import { BASE_URL, SANDBOX_URL, createStaff, requestAcceptedInConsumerApp, uniqueTag } from "./support";

// Issue 39: a person is told. A payment accepted in the sandbox app reaches the bell within seconds and, when the
// person chose e-mail, the sandbox mailbox; their choices on /account change what arrives.

function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
}

async function signInAs(page: Page, email: string, password: string, to: string): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(to)}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function choose(page: Page, label: string, channel: string): Promise<void> {
  await page.goto("/account#notifications");
  await page.getByLabel(label, { exact: true }).selectOption({ label: channel });
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByTestId("notification-preferences-saved")).toHaveText("Your notification settings are saved.");
}

/** A request to a fresh tag for `amount`, accepted by the person in the sandbox's consumer app: its payment notice follows. */
async function paid(request: APIRequestContext, consumer: Page, amount: string): Promise<string> {
  const tag = uniqueTag("told");
  await requestAcceptedInConsumerApp(request, consumer, {
    tag,
    amount,
    description: "Notified",
    idempotencyKey: `told${Date.now()}${amount.replace(".", "")}`,
  });
  return tag;
}

test("a payment reaches the bell and, by the person's choice, their mailbox; turned off, it no longer arrives", async ({ browser, request }) => {
  // The stored admin session makes the account (a fresh admin sign-in would count against the account's 20 sessions).
  const person = await createStaff(request, "operator");
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await signInAs(page, person.email, person.password, "/account");
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    await choose(page, "A payment arrived", "Dashboard and e-mail at once");

    await page.goto("/notifications");
    await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
    const consumer = await context.newPage();
    const tag = await paid(request, consumer, "4321.77");
    // The bell moves by itself (the live event of this person), and the list shows the payment.
    await expect(page.getByTestId("notification-count")).toHaveText(/^[1-9]/, { timeout: 20_000 });
    const item = page.getByTestId("notification-item").filter({ hasText: `@${tag}` });
    await expect(item).toContainText("NGN 4,321.77 received from");
    await expect(item).toContainText(/E-mail(ed| on its way)/, { timeout: 20_000 });

    // The e-mail, in the sandbox's mailbox, opened in the browser: listed, then read whole, its link to the payment.
    // (axe checks the list; the message page frames the e-mail in a sandboxed iframe, where axe cannot run.)
    const mail = await context.newPage();
    const subject = mail.getByRole("link", { name: new RegExp(`^NGN 4,321\\.77 received from .*@${tag}`) });
    await expect(async () => {
      await mail.goto(`${SANDBOX_URL}/mail?to=${encodeURIComponent(person.email)}`);
      await expect(subject).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expectAxeClean(mail, "the sandbox mailbox");
    await subject.click();
    await expect(mail.getByRole("heading", { level: 1 })).toHaveText(/^NGN 4,321\.77 received from .*\(@told/);
    await expect(mail.getByRole("link", { name: new RegExp(`^${BASE_URL}/payments/`) })).toBeVisible();
    await expect(mail.getByText("NGN 4,321.77", { exact: false }).first()).toBeVisible();
    const listed = (await (await request.get(`${SANDBOX_URL}/sandbox/mail?to=${encodeURIComponent(person.email)}`)).json()) as {
      subject: string;
      html: string;
    }[];
    const message = listed.find((m) => m.subject.includes(`@${tag}`));
    expect(message?.subject).toMatch(/^NGN 4,321\.77 received from .*\(@told/);
    expect(message?.html).toContain(`${BASE_URL}/payments/`);

    // Mark it read: the bell goes down.
    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect(page.getByTestId("notification-count")).toHaveCount(0);

    // Turned off: the next payment reaches the admin (dashboard by default) but not this person.
    await choose(page, "A payment arrived", "Off");
    const second = await paid(request, consumer, "4321.78");
    await expect(async () => {
      const mine = (await (await request.get("/api/notifications?page=1")).json()) as { data: { items: { title: string }[] } };
      expect(mine.data.items.some((n) => n.title.includes(`@${second}`))).toBe(true);
    }).toPass({ timeout: 30_000 });
    const theirs = (await (await page.request.get("/api/notifications?page=1")).json()) as { data: { items: { type: string; title: string }[] } };
    expect(theirs.data.items.filter((n) => n.title.includes(`@${second}`)).map((n) => `${n.type}: ${n.title}`)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a choice made while the settings are still loading is the one saved", async ({ browser, request }) => {
  const person = await createStaff(request, "operator");
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await signInAs(page, person.email, person.password, "/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    // The page's scripts held back: the form is the server's HTML until they load, as on a slow phone or a busy server.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/_next/static/chunks/**/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/account#notifications", { waitUntil: "commit" });
    const select = page.getByLabel("A payment arrived", { exact: true });
    await expect(select).toBeVisible();
    // Chosen before the scripts run: it waits for the form to be ready instead of being undone when it becomes so.
    const choosing = select.selectOption({ label: "Off" });
    release();
    await choosing;
    await page.getByRole("button", { name: "Save notification settings" }).click();
    await expect(page.getByTestId("notification-preferences-saved")).toHaveText("Your notification settings are saved.");
    const saved = (await (await page.request.get("/api/me/notifications")).json()) as { data: { choices: Record<string, string> } };
    expect(saved.data.choices["payment.received"]).toBe("off");
  } finally {
    await context.close();
  }
});

for (const width of [1280, 375]) {
  test(`the notifications page and the settings form hold the accessibility bar at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    await expectAxeClean(page, `/notifications at ${width}`);
    await page.goto("/account#notifications");
    await expect(page.getByTestId("notification-preferences")).toBeVisible();
    await expectAxeClean(page, `/account at ${width}`);
  });
}

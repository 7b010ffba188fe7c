import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";

import { fakeAddress } from "../tests/support/sign-in";
import { BASE_URL, SANDBOX_URL, createStaff, requestAcceptedInConsumerApp, uniqueTag } from "./support";

// Issue 40: an admin adds an endpoint at the sandbox's receiver, sends a test event, a payment is accepted in the
// sandbox app, and both deliveries show in the log; operators and viewers cannot open the page.

function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
}

test("an admin adds an endpoint, sends a test event, and sees it and a real payment delivered, signed, in the log", async ({ page, request }) => {
  const name = `walk${Date.now().toString(36)}`;
  await page.goto("/developers/webhooks");
  await expect(page.getByRole("heading", { name: "Outgoing webhooks", level: 1 })).toBeVisible();
  // Hydrated (its live stream is open): a box ticked before that is set back to the form's default as it hydrates.
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  await page.getByLabel("URL").fill(`${SANDBOX_URL}/sandbox/hooks/${name}`);
  await page.getByLabel("Description (optional)").fill("Our ERP");
  await page.getByLabel("All events, including types added later").uncheck();
  await page.getByRole("checkbox", { name: "payment.received" }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("shown-secret")).toContainText("whsec_");
  const secret = /whsec_[A-Za-z0-9+/=]+/.exec((await page.getByTestId("shown-secret").textContent()) ?? "")?.[0] ?? "";
  const card = page.getByTestId("outbound-endpoint").filter({ hasText: `/sandbox/hooks/${name}` });
  await expect(card).toBeVisible();

  await card.getByRole("combobox").first().selectOption("payment.received");
  await card.getByRole("button", { name: "Send a test event" }).click();
  await expect(card.getByTestId("outbound-delivery").filter({ hasText: "payment.received" }).first()).toHaveAttribute("data-status", "delivered", {
    timeout: 20_000,
  });

  const consumer = await page.context().newPage();
  await requestAcceptedInConsumerApp(request, consumer, {
    tag: uniqueTag("hooked"),
    amount: "2718.28",
    description: "Hooked",
    idempotencyKey: `hook${Date.now()}`,
  });
  await expect(card.getByTestId("outbound-delivery").filter({ hasText: "payment.received" })).toHaveCount(2, { timeout: 30_000 });
  await expect(card.getByTestId("outbound-delivery").first()).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });

  // The receiver got both, each signed with the secret the page showed (checked by the standardwebhooks verifier, as a
  // receiver would); the real one carries the payment.
  const received = (await (await request.get(`${SANDBOX_URL}/sandbox/hooks/${name}`)).json()) as { headers: Record<string, string>; body: string }[];
  expect(received).toHaveLength(2);
  const verifier = new Webhook(secret);
  for (const r of received) {
    expect(r.headers["webhook-id"]).toMatch(/^evt_/);
    expect(verifier.verify(r.body, r.headers)).toMatchObject({ id: r.headers["webhook-id"] });
  }
  expect(received.map((r) => (JSON.parse(r.body) as { data: { actualAmount?: string } }).data.actualAmount)).toContain("2718.28");
});

for (const role of ["operator", "viewer"] as const) {
  test(`an ${role} cannot open the outgoing webhooks page or its routes`, async ({ browser, request }) => {
    // The stored admin session makes the account (a fresh admin sign-in would count against the account's 20 sessions).
    const person = await createStaff(request, role);
    const context = await freshContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/developers/webhooks")}`);
      await page.getByLabel("E-mail").fill(person.email);
      await page.getByLabel("Password").fill(person.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
      await expect(page.getByTestId("outbound-endpoint")).toHaveCount(0);
      const api = await page.request.get("/api/webhook-endpoints");
      expect(api.status()).toBe(403);
      const post = await page.request.post("/api/webhook-endpoints", { headers: { Origin: BASE_URL }, data: { url: `${SANDBOX_URL}/sandbox/hooks/x` } });
      expect(post.status()).toBe(403);
    } finally {
      await context.close();
    }
  });
}

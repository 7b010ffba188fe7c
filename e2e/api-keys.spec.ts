import { randomUUID } from "node:crypto";

import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";

import { fakeAddress } from "../tests/support/sign-in";
import { expectAxeClean } from "./axe";
import { BASE_URL, createStaff } from "./support";

// Issue 41: an admin makes an API key on /developers/api-keys, copies it the once it is shown, sees only its hint
// afterwards, calls /api/v1 with it, rolls and revokes keys; the API reference renders on the server from the same
// document as /api/v1/openapi.json, asks no other host for anything, and both pages pass axe at a laptop's and a
// phone's width. The stored admin session drives the page and the `request` fixture (no fresh admin sign-in).

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;
const KEY_RE = /^fb_test_[0-9A-Za-z]{43}$/;

type Envelope = { status: boolean; message: string; code?: string };

function freshContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeAddress() } });
}

/** An /api/v1 call with `key`, as the business's own system makes it. */
async function callWithKey(request: APIRequestContext, path: string, key: string): Promise<{ status: number; body: Envelope }> {
  const res = await request.get(path, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status(), body: (await res.json()) as Envelope };
}

/** Makes a key on the page and answers the whole key the panel shows. */
async function makeKey(page: Page, name: string, access: "Everything" | "Read only" | "Choose scopes"): Promise<string> {
  const form = page.getByRole("form", { name: "Make an API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("radio", { name: new RegExp(`^${access}`) }).check();
  await form.getByRole("button", { name: "Make key" }).click();
  const shown = page.getByTestId("shown-key");
  await expect(shown).toContainText(name);
  await expect(shown).toContainText("it will not be shown again");
  // Focus lands on the key's panel.
  await expect(shown.getByRole("heading", { level: 2 })).toBeFocused();
  const key = (await page.getByTestId("shown-key-value").textContent())?.trim() ?? "";
  expect(key).toMatch(KEY_RE);
  return key;
}

const rowOf = (page: Page, name: string) => page.getByTestId("api-key-row").filter({ hasText: name });

test("an admin makes a key, copies it once, sees only its hint afterwards, calls the API with it, and revokes it", async ({ page, request }) => {
  const name = `ERP ${Date.now().toString(36)}`;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  await page.goto("/developers/api-keys");
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");

  // The form checks with the handler's own schema before anything is sent.
  const form = page.getByRole("form", { name: "Make an API key" });
  await form.getByLabel("Expires after (days)").fill("400");
  await form.getByRole("button", { name: "Make key" }).click();
  await expect(form.getByText("Name the key (what uses it)")).toBeVisible();
  await expect(form.getByText("At most 365 days")).toBeVisible();
  await form.getByLabel("Expires after (days)").fill("90");
  // Hand-picking starts from the chosen preset; none at all is refused.
  await form.getByRole("radio", { name: /^Read only/ }).check();
  await form.getByRole("radio", { name: /^Choose scopes/ }).check();
  await expect(form.getByRole("checkbox", { name: "payments:read" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "requests:write" })).not.toBeChecked();
  const ticked = form.getByRole("checkbox", { checked: true });
  while ((await ticked.count()) > 0) await ticked.first().uncheck();
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Make key" }).click();
  await expect(form.getByText("Choose at least one scope")).toBeVisible();

  const key = await makeKey(page, name, "Read only");
  const hint = `fb_test_…${key.slice(-4)}`;

  // Copy puts the whole key on the clipboard.
  await page.getByTestId("shown-key").getByRole("button", { name: "Copy" }).click();
  await expect(page.getByTestId("shown-key").getByRole("status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  const row = rowOf(page, name);
  await expect(row).toHaveAttribute("data-state", "active");
  await expect(row).toContainText(hint);
  await expect(row).toContainText("Read only");
  await expect(row).toContainText("Never");
  // The list itself never holds the whole key: only the panel does.
  await expect(page.getByRole("region", { name: "API keys", exact: true })).not.toContainText(key);
  await expectAxeClean(page, "/developers/api-keys with a key shown at 1280 px");

  // It calls the API: reads it holds the scope of.
  const payments = await callWithKey(request, "/api/v1/payments", key);
  expect(payments.status, payments.body.message).toBe(200);
  expect(payments.body.status).toBe(true);
  const balance = await callWithKey(request, "/api/v1/balance", key);
  expect(balance.status, balance.body.message).toBe(200);
  // A read-only key may not send.
  const send = await request.post("/api/v1/requests", {
    headers: { Authorization: `Bearer ${key}`, "Idempotency-Key": randomUUID() },
    data: { tag: "readonly.key", amount: "1.00", description: "Refused" },
  });
  expect(send.status()).toBe(403);
  expect(((await send.json()) as Envelope).code).toBe("forbidden");

  // After a reload the key is gone for good: its hint is on the page, the key is nowhere in the HTML.
  await page.reload();
  await expect(rowOf(page, name)).toContainText(hint);
  await expect(page.getByTestId("shown-key")).toHaveCount(0);
  const html = await page.content();
  expect(html).toContain(hint);
  expect(html).not.toContain(key);
  const served = await (await request.get("/developers/api-keys")).text();
  expect(served).not.toContain(key);
  expect(served).toContain(hint);
  // The last use is shown, in Lagos time, with the address it came from.
  await expect(rowOf(page, name).locator("td[data-label='Last used'] time")).toBeVisible();

  // Revoked (after a confirmation): the next call is refused.
  page.once("dialog", (dialog) => void dialog.accept());
  await rowOf(page, name)
    .getByRole("button", { name: `Revoke ${name} (${hint})` })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "API key revoked" })).toBeVisible();
  await expect(rowOf(page, name)).toHaveAttribute("data-state", "revoked");
  const refused = await callWithKey(request, "/api/v1/payments", key);
  expect(refused.status).toBe(401);
  expect(refused.body.status).toBe(false);
  expect(refused.body.code).toBe("unauthenticated");
  expect(refused.body.message).toMatch(/revoked/);
});

test("rolling a key shows the new one once; with no overlap the old one stops at once", async ({ page, request }) => {
  const name = `Zapier ${Date.now().toString(36)}`;
  await page.goto("/developers/api-keys");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  const old = await makeKey(page, name, "Everything");
  expect((await callWithKey(request, "/api/v1/balance", old)).status).toBe(200);

  await rowOf(page, name)
    .getByRole("button", { name: new RegExp(`^Roll ${name}`) })
    .click();
  const roll = page.getByTestId("roll-key");
  await expect(roll.getByRole("heading", { level: 2 })).toBeFocused();
  await roll.getByLabel("The old key keeps working for").selectOption({ label: "Not at all: it stops now" });
  await roll.getByRole("button", { name: "Roll key" }).click();
  const shown = page.getByTestId("shown-key");
  await expect(shown).toContainText("The old key stopped working now.");
  const fresh = ((await page.getByTestId("shown-key-value").textContent()) ?? "").trim();
  expect(fresh).toMatch(KEY_RE);
  expect(fresh).not.toBe(old);
  await expect(roll).toHaveCount(0);

  // Two rows of that name now: the new one active, the old one rolled and expired.
  await expect(page.getByTestId("api-key-row").filter({ hasText: name })).toHaveCount(2);
  await expect(page.locator(`[data-testid="api-key-row"][data-hint="fb_test_…${fresh.slice(-4)}"]`)).toHaveAttribute("data-state", "active");
  await expect(page.locator(`[data-testid="api-key-row"][data-hint="fb_test_…${old.slice(-4)}"]`)).toHaveAttribute("data-state", "expired");
  expect((await callWithKey(request, "/api/v1/balance", fresh)).status).toBe(200);
  const stopped = await callWithKey(request, "/api/v1/balance", old);
  expect(stopped.status).toBe(401);
  expect(stopped.body.code).toBe("unauthenticated");
  await expectAxeClean(page, "/developers/api-keys after a roll at 1280 px");
});

test("the API reference renders every operation on the server, asks no other host for anything, and is linked from the developer pages", async ({
  page,
  request,
}) => {
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  await page.goto("/developers/webhooks");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/developers/api`);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");

  // Each operation of the served document has its heading: the method and the whole path.
  const document = (await (await request.get("/api/v1/openapi.json")).json()) as { servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${document.servers[0]?.url}${path}`),
  );
  expect(operations.length).toBeGreaterThanOrEqual(10);
  for (const name of operations) await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
  await expect(page.getByTestId("api-operation")).toHaveCount(operations.length);
  // The intro: the key's header, Idempotency-Key, the limits, the envelope and the document's address.
  await expect(page.getByText("Authorization: Bearer fb_…", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Idempotency-Key on every POST" })).toBeVisible();
  await expect(page.getByText(/600 reads \(GET\) and 60 writes/)).toBeVisible();
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute("href", "/api/v1/openapi.json");
  // A scope and a body, read from the document.
  const create = page.locator("#op-createRequest");
  await expect(create).toContainText("requests:write");
  await expect(create.getByRole("link", { name: "CreateRequest" })).toBeVisible();
  await expect(page.locator("#schema-CreateRequest pre")).toContainText("businessReference?: string");

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAxeClean(page, `/developers/api at ${viewport.width} px`);
  }
  // Nothing but this dashboard was asked for anything: no outside script, font or style.
  const origin = new URL(BASE_URL).origin;
  expect(requested.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin)).toEqual([]);
  expect(requested.length).toBeGreaterThan(0);

  // The reference links to the keys page, which passes axe at both widths too.
  await page.setViewportSize(VIEWPORTS[0]);
  await page.getByRole("main").getByRole("link", { name: "API keys" }).first().click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expectAxeClean(page, `/developers/api-keys at ${viewport.width} px`);
  }
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/developers/api");
});

test("a viewer reads the API reference but cannot open the keys page or its routes", async ({ browser, request }) => {
  // The stored admin session makes the account (a fresh admin sign-in would count against the account's 20 sessions).
  const person = await createStaff(request, "viewer");
  const context = await freshContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/developers/api")}`);
    await page.getByLabel("E-mail").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: "GET /api/v1/balance", exact: true })).toBeVisible();
    await page.goto("/developers/api-keys");
    await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    expect((await page.request.get("/api/api-keys")).status()).toBe(403);
    const post = await page.request.post("/api/api-keys", { headers: { Origin: BASE_URL }, data: { name: "Mine", scopes: "everything" } });
    expect(post.status()).toBe(403);
  } finally {
    await context.close();
  }
});

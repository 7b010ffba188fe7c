// The day book (issue 25, DESIGN §14) as a finance person reads it in Chromium: a paid request counted in today's row
// and the total, the chart of settled against the balance's change, a payment landing while the page is open (no
// reload), the CSV, axe clean with no sideways scroll on a laptop and a phone, and a range the route refuses.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import Papa from "papaparse";

import { DEV_API_KEY } from "../lib/config/dev-key";
import type { DayBook, DayEntry } from "../lib/client/reports/daily";
import { quickRanges } from "../lib/client/time/day-range";
import { dayOf, monthStart } from "../lib/client/time/zone";
import { payload } from "../tests/support/payloads";
import { deliverySignature } from "../tests/support/sign-delivery";
import { BASE_URL, koboOf, nairaText, uniqueTag } from "./support";
import { expectAxeClean } from "./axe";

test.describe.configure({ mode: "serial" });

// The e2e server runs with the default TIMEZONE, Africa/Lagos: the page's default is this month so far.
const TODAY = dayOf(new Date(), "Africa/Lagos");
const MONTH = monthStart(TODAY);
const money = (amount: string) => nairaText(koboOf(amount));
/** The table's cells carry no currency (its headers say NGN), so the book fits 1,280 px. */
const cellMoney = (amount: string) => money(amount).replace(/^NGN\s*/, "");

/** The day book GET /api/reports/daily answers now (this month so far, as the page shows with no days in its URL). */
async function bookNow(request: APIRequestContext): Promise<DayBook> {
  // The page's default days (this month so far, from the first day anything was recorded): the route's default too.
  const res = await request.get("/api/reports/daily");
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: DayBook }).data;
}

const todayOf = (book: DayBook): DayEntry => {
  const entry = book.days.find((d) => d.date === TODAY);
  if (!entry) throw new Error(`the day book has no row for ${TODAY}`);
  return entry;
};

/**
 * Waits until today's row and the total row show what the route answers (other specs' payments may land meanwhile,
 * so the two are read together until they agree), and returns today's payment count.
 */
async function expectPageMatchesRoute(page: Page, request: APIRequestContext, atLeast: number): Promise<number> {
  const today = page.locator(`[data-testid="day-row"][data-day="${TODAY}"]`);
  const total = page.getByTestId("day-book-total");
  let count = -1;
  await expect
    .poll(
      async () => {
        const book = await bookNow(request);
        const entry = todayOf(book);
        const wanted = [entry.payments.count, cellMoney(entry.payments.settled), book.total.payments.count, cellMoney(book.total.payments.settled)].join(" | ");
        const shown = [
          await today.getByTestId("payments").textContent(),
          await today.getByTestId("settled").textContent(),
          await total.getByTestId("payments").textContent(),
          await total.getByTestId("settled").textContent(),
        ].join(" | ");
        count = entry.payments.count;
        return shown === wanted && count >= atLeast ? "matches" : `page ${shown}; route ${wanted}`;
      },
      { timeout: 30_000 },
    )
    .toBe("matches");
  return count;
}

/** A payment as the service delivers it (a signed webhook) from a tag no request waits on: settled NGN 1,485.00. */
async function deliverPayment(request: APIRequestContext): Promise<void> {
  const tag = uniqueTag("book.pay");
  const delivery = payload({ description: "Day book live", meta: { peer_tag: tag, name: "Day Book" } });
  const body = JSON.stringify({ ...delivery, customer: { ...delivery.customer, tag } });
  const res = await request.post("/api/webhooks/peer-transfer", {
    data: Buffer.from(body),
    headers: { "content-type": "application/json", "x-service-signature": deliverySignature(body, DEV_API_KEY) },
  });
  expect(res.status(), await res.text()).toBe(200);
}

let paidSettled = "";

test.beforeAll(async ({ request }) => {
  // accept.* accepts and pays about a second after the request (the sandbox's auto user), by webhook.
  const tag = uniqueTag("accept.book");
  const made = await request.post("/api/requests", {
    headers: { Origin: BASE_URL },
    data: { tag, amount: "321.50", description: "Day book", idempotencyKey: `book${Date.now()}` },
  });
  expect(made.status(), await made.text()).toBe(201);
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/payments?tag=${encodeURIComponent(tag)}`);
        const page = ((await res.json()) as { data: { items: { settledAmount: string }[] } }).data;
        paidSettled = page.items[0]?.settledAmount ?? "";
        return page.items.length;
      },
      { timeout: 30_000 },
    )
    .toBe(1);
});

test("today's row counts the paid request with its settled amount; the total row, the totals and the chart agree; axe clean at 1280 and 375 px", async ({
  page,
  request,
}) => {
  await page.goto("/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Day book" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Day book" })).toHaveAttribute("aria-current", "page");
  const count = await expectPageMatchesRoute(page, request, 1);
  expect(count).toBeGreaterThanOrEqual(1);

  const book = await bookNow(request);
  const today = page.locator(`[data-testid="day-row"][data-day="${TODAY}"]`);
  // One row a day of the month so far from the first day with activity, then the total; today's is marked and named
  // as a Lagos day ("Tue 24 Nov").
  expect(book.from >= MONTH && book.to === TODAY).toBe(true);
  await expect(page.getByTestId("day-row")).toHaveCount(book.days.length);
  await expect(today.getByRole("rowheader")).toContainText(/^[A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \(today\)$/);
  await expect(page.getByTestId("day-book-total").getByRole("rowheader")).toHaveText(`Total (${book.days.length} day${book.days.length === 1 ? "" : "s"})`);
  // Today's settled is at least this payment's.
  const settledToday = Number(todayOf(book).payments.settled);
  expect(settledToday).toBeGreaterThanOrEqual(Number(paidSettled));
  expect(Number(paidSettled)).toBeGreaterThan(0);
  // A day's accepted request is counted on the day it was answered.
  expect(Number(await today.getByTestId("requests-accepted").textContent())).toBeGreaterThanOrEqual(1);

  const chart = page.getByRole("img", { name: /^Bar chart of the amount settled and the balance change per day/ });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute("aria-label", new RegExp(`${money(book.total.payments.settled).replace(/[.]/g, "\\.")} settled in total`));
  await expect(page.getByTestId("day-book-chart").locator("rect.fill-brand-600")).toHaveCount(book.days.length);
  await expect(page.getByText("Settled (left bar)")).toBeVisible();
  await expect(page.getByTestId("total-settled")).toContainText(money(book.total.payments.settled));

  await expectAxeClean(page, "/reports at 1280");
  await page.setViewportSize({ width: 375, height: 812 });
  // A phone shows each day as a card: its lines are labelled, the table does not scroll sideways.
  await expect(today.locator('td[data-label="Settled (NGN)"]')).toBeVisible();
  await expectAxeClean(page, "/reports at 375");
});

test("a payment landing while the page is open shows in today's row and the total with no reload", async ({ page, request }) => {
  await page.goto("/reports");
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  const before = await expectPageMatchesRoute(page, request, 1);
  let reloads = 0;
  page.on("load", () => (reloads += 1));
  await deliverPayment(request);
  const after = await expectPageMatchesRoute(page, request, before + 1);
  expect(after).toBeGreaterThanOrEqual(before + 1);
  expect(reloads).toBe(0);
});

test("the CSV link answers the days in view as text/csv, a header row, a row a day and the total", async ({ page, request }) => {
  const last = quickRanges(TODAY).find((r) => r.key === "last-month");
  if (!last) throw new Error("no last-month quick range");
  await page.goto("/reports");
  await page.getByRole("link", { name: "Last month" }).click();
  await expect(page).toHaveURL(`${BASE_URL}/reports?from=${last.from}&to=${last.to}`);
  await expect(page.getByRole("link", { name: "Last month" })).toHaveAttribute("aria-current", "true");
  const days = Number(last.to.slice(8));
  await expect(page.getByTestId("day-row")).toHaveCount(days);
  await expect(page.getByTestId("day-row").first()).toHaveAttribute("data-day", last.from);

  const href = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(href).toBe(`/api/reports/daily?from=${last.from}&to=${last.to}&format=csv`);
  const res = await request.get(href ?? "");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await res.text()).trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^date,requests_sent,/);
  expect(lines).toHaveLength(days + 2);
  expect(lines[1]).toMatch(new RegExp(`^${last.from},`));
  expect(lines[lines.length - 1]).toMatch(/^total,/);
});

test("a one-day range in the URL shows that day alone", async ({ page }) => {
  await page.goto(`/reports?from=${TODAY}&to=${TODAY}`);
  await expect(page.getByTestId("day-row")).toHaveCount(1);
  await expect(page.getByTestId("day-row")).toHaveAttribute("data-day", TODAY);
});

test("a range of 400 days, or one ending before it starts, shows the route's refusal instead of the book", async ({ page, request }) => {
  // A far day is refused at once (it once looped the server out of memory): 422 naming the field, in well under a second.
  const started = Date.now();
  const far = await request.get("/api/reports/daily?from=9999-12-31");
  expect(far.status()).toBe(422);
  expect(((await far.json()) as { data: { fieldErrors: Record<string, string[]> } }).data.fieldErrors.from).toEqual([
    "Give a day from 2000-01-01 to 2100-12-31",
  ]);
  expect(Date.now() - started).toBeLessThan(5_000);
  const farPage = await request.get("/reports?from=9999-12-31");
  expect(farPage.status()).toBe(200);
  expect((await request.get("/api/health")).status()).toBe(200);

  const message = "That is 400 days; the day book shows at most 366 at once. Choose a shorter range.";
  const api = await request.get("/api/reports/daily?from=2025-01-01&to=2026-02-04");
  expect(api.status()).toBe(422);
  expect(((await api.json()) as { message: string }).message).toBe(message);

  await page.goto("/reports?from=2025-01-01&to=2026-02-04");
  await expect(page.getByRole("heading", { level: 1, name: "Day book" })).toBeVisible();
  const alert = page.getByRole("alert").filter({ hasText: "These days cannot be shown" });
  await expect(alert).toContainText(message);
  await expect(page.getByTestId("day-row")).toHaveCount(0);
  await expect(page.getByTestId("day-book-chart")).toHaveCount(0);
  // The pickers still hold the days asked for, to shorten from.
  await expect(page.getByLabel("First day")).toHaveValue("2025-01-01");
  await expectAxeClean(page, "/reports refusing 400 days");

  await page.goto("/reports?from=2026-11-10&to=2026-11-01");
  await expect(page.getByRole("alert").filter({ hasText: "These days cannot be shown" })).toContainText("The last day is before the first; swap them.");
});

test("the payments page downloads today's Xero and QuickBooks files: a line per payment and a negative one per fee, totals equal to the day book's", async ({
  page,
  request,
}) => {
  const kobo = (v: string) => Math.round(Number(v) * 100);
  await page.goto(`/payments?from=${TODAY}&to=${TODAY}`);
  const exports = page.getByRole("region", { name: "Export for accounting" });
  await expect(exports).toContainText(`received ${TODAY} to ${TODAY}`);
  /** One file's amounts, read back with a CSV parser, after checking its columns. */
  const downloaded = async (name: string, columns: string[], amountColumn: string): Promise<number[]> => {
    const [file] = await Promise.all([page.waitForEvent("download"), exports.getByRole("link", { name }).click()]);
    const text = await (await file.createReadStream()).toArray();
    const parsed = Papa.parse<Record<string, string>>(Buffer.concat(text).toString("utf8"), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(columns);
    return parsed.data.map((row) => kobo(row[amountColumn] ?? ""));
  };
  // Other specs' payments may land meanwhile: the files and the day book are read together until they agree.
  await expect(async () => {
    const xero = await downloaded("Xero CSV", ["*Date", "*Amount", "Payee", "Description", "Reference"], "*Amount");
    const quickbooks = await downloaded("QuickBooks CSV", ["Date", "Description", "Amount"], "Amount");
    const today = todayOf(await bookNow(request));
    for (const amounts of [xero, quickbooks]) {
      expect(amounts.filter((a) => a > 0)).toHaveLength(today.payments.count);
      expect(amounts.filter((a) => a > 0).reduce((t, a) => t + a, 0)).toBe(kobo(today.payments.gross));
      expect(-amounts.filter((a) => a < 0).reduce((t, a) => t + a, 0)).toBe(kobo(today.payments.fees));
    }
  }).toPass({ timeout: 30_000 });
});

import { readFile } from "node:fs/promises";

import { expect, test } from "@playwright/test";

import { fakeAddress as fakeClientIp } from "../tests/support/sign-in";
import { DEMO_ADMIN, createStaff, newSession } from "./support";

test.describe.configure({ mode: "serial" });

// Four rows the sandbox's auto users accept by themselves (after about a second), and one row that
// fails every check: a one-letter tag, an amount that is no number, no description.
const CSV = [
  "tag,amount,description",
  "accept.c1,101,E2E campaign one",
  "accept.c2,102.50,E2E campaign two",
  "accept.c3,103,E2E campaign three",
  "accept.c4,104,E2E campaign four",
  "x,abc,",
].join("\n");

/** The campaign the first test makes; the viewer test looks at it. */
let campaignPath = "";

test("an admin uploads a CSV, checks the preview, starts it, watches it finish live and downloads the results", async ({ page }) => {
  test.setTimeout(150_000);
  const name = `E2E campaign ${Date.now().toString(36)}`;
  await page.goto("/campaigns/new");
  await expect(page.getByRole("heading", { level: 1, name: "New campaign" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("CSV file").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(CSV, "utf8") });
  await page.getByRole("button", { name: "Upload" }).click();

  // The draft's page shows the preview; nothing is sent yet.
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  campaignPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("campaign-status")).toHaveAttribute("data-status", "draft");
  await expect(page.getByTestId("count-total")).toHaveText("5");
  await expect(page.getByTestId("count-sendable")).toHaveText("4");
  await expect(page.getByTestId("count-invalid")).toHaveText("1");
  await expect(page.getByTestId("amount-asked")).toHaveText("NGN 410.50");
  const invalid = page.getByTestId("invalid-row");
  await expect(invalid).toHaveCount(1);
  await expect(invalid).toHaveAttribute("data-row", "5");
  await expect(invalid).toContainText("A tag has at least 2 characters");
  await expect(invalid).toContainText("amount:");
  await expect(page.getByTestId("campaign-row-line")).toHaveCount(5);

  // Start, then watch with no reload: live events re-render the page until every row is accepted.
  await expect(page.getByTestId("live-status")).toHaveAttribute("data-state", "open");
  let reloads = 0;
  page.on("load", () => (reloads += 1));
  await page.getByRole("button", { name: "Start sending 4 requests" }).click();
  // A send asks people for money: it goes out only after a question that says how many and how much.
  await expect(page.getByTestId("start-question")).toContainText("Send 4 requests now, asking NGN 410.50 in all?");
  await page.getByRole("button", { name: "Yes, send 4 requests" }).click();
  await expect(page.getByTestId("campaign-status")).not.toHaveAttribute("data-status", "draft", { timeout: 20_000 });
  await expect(page.getByRole("progressbar", { name: "Rows handled" })).toHaveAttribute("aria-valuemax", "4");
  await expect(page.getByTestId("campaign-status")).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(page.getByTestId("campaign-status")).toHaveText("done");
  await expect(page.getByTestId("count-accepted")).toHaveText("4", { timeout: 60_000 });
  await expect(page.getByRole("progressbar", { name: "Rows handled" })).toHaveAttribute("aria-valuenow", "4");
  await expect(page.getByTestId("amount-accepted")).toHaveText("NGN 410.50");
  // A finished campaign has nothing left to start, pause or cancel.
  await expect(page.getByRole("button", { name: /^(Pause|Resume|Cancel campaign)$/ })).toHaveCount(0);
  expect(reloads).toBe(0);

  // The filter lives in the URL; each accepted row links to its request.
  await page.getByLabel("Show rows").selectOption("accepted");
  await expect(page).toHaveURL(/status=accepted/);
  const accepted = page.getByTestId("campaign-row-line");
  await expect(accepted).toHaveCount(4);
  await expect(accepted.first().getByRole("link", { name: /^#\d+$/ })).toHaveAttribute("href", /^\/requests\/\d+$/);
  // Everyone paid: nothing is outstanding.
  await expect(page.getByTestId("amount-outstanding")).toHaveText("NGN 0.00");
  await page.getByLabel("Show rows").selectOption("invalid");
  await expect(page).toHaveURL(/status=invalid/);
  await expect(page.getByTestId("campaign-row-line")).toHaveCount(1);
  await expect(page.getByTestId("campaign-row-line")).toHaveAttribute("data-status", "invalid");

  // The results file follows the filter in view: under "invalid", the header and that one row.
  const readDownload = async () => {
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download results" }).click();
    const text = await readFile(await (await downloading).path(), "utf8");
    return {
      text,
      lines: text
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)
        .filter((line) => line.trim() !== ""),
    };
  };
  const invalidOnly = await readDownload();
  expect(invalidOnly.lines, invalidOnly.text).toHaveLength(2);
  // Line 6 of the file: its fifth row under the header, as the spreadsheet numbers it.
  expect(invalidOnly.lines[1]).toMatch(/^6,/);
  // Every row: a header and one line per row of the upload, with who paid.
  await page.getByLabel("Show rows").selectOption("");
  await expect(page).not.toHaveURL(/status=/);
  const { text, lines } = await readDownload();
  expect(lines, text).toHaveLength(6);
  expect(lines[0]).toMatch(/tag/i);
  expect(lines[0]).toMatch(/status/i);
  expect(lines[0]).toMatch(/payer_name,amount_paid,amount_settled,paid_at/);
  for (const tag of ["accept.c1", "accept.c2", "accept.c3", "accept.c4"]) expect(text).toContain(tag);

  // A request the campaign made links back to it and names who started it.
  await page.getByLabel("Show rows").selectOption("accepted");
  await page
    .getByTestId("campaign-row-line")
    .first()
    .getByRole("link", { name: /^#\d+$/ })
    .click();
  await expect(page).toHaveURL(/\/requests\/\d+$/);
  await expect(page.getByRole("link", { name })).toHaveAttribute("href", campaignPath);
  await expect(page.getByText(`started by ${DEMO_ADMIN.name}`)).toBeVisible();

  // The list shows it, finished.
  await page.goto("/campaigns");
  const listed = page.getByTestId("campaign-row").filter({ hasText: name });
  await expect(listed).toHaveCount(1);
  await expect(listed.getByTestId("campaign-status")).toHaveText("done");
  await expect(listed).toContainText("4 of 4");
});

test("a discarded draft says discarded and that nobody was asked, here and in the list", async ({ page }) => {
  const name = `E2E discarded ${Date.now().toString(36)}`;
  await page.goto("/campaigns/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("CSV file").setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(CSV, "utf8") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  await expect(page.getByTestId("amount-asked")).toHaveText("NGN 410.50");
  await page.getByRole("button", { name: "Discard draft" }).click();
  await page.getByRole("button", { name: "Yes, discard it" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("discarded");
  await expect(page.getByTestId("campaign-discarded")).toHaveText("Discarded before it was started: nobody was asked.");
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(page.getByTestId("amount-asked")).toHaveText("NGN 0.00");
  await page.goto("/campaigns");
  const listed = page.getByTestId("campaign-row").filter({ hasText: name });
  await expect(listed.getByTestId("campaign-status")).toHaveText("discarded");
  await expect(listed).toContainText("nothing asked");
});

test("a file without the required columns is refused with the server's reason, and nothing is created", async ({ page }) => {
  await page.goto("/campaigns/new");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("#campaign-name-error")).toHaveText("Give the campaign a name");
  await expect(page.locator("#campaign-file-error")).toHaveText("Choose the CSV file to upload");

  await page.getByLabel("Name", { exact: true }).fill("E2E wrong columns");
  await page.getByLabel("CSV file").setInputFiles({ name: "wrong.csv", mimeType: "text/csv", buffer: Buffer.from("tag,price,note\nada.obi,1,x\n", "utf8") });
  await page.getByRole("button", { name: "Upload" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "header row" });
  await expect(alert).toContainText("amount, description");
  await expect(page).toHaveURL(/\/campaigns\/new$/);
});

test("an unknown campaign id shows not found", async ({ page }) => {
  await page.goto("/campaigns/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Campaign not found" })).toBeVisible();
  await page.goto("/campaigns/bad%20id");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
});

test("a viewer reads campaigns but has no upload or campaign buttons", async ({ browser }) => {
  expect(campaignPath, "the first test made a campaign").not.toBe("");
  const admin = await newSession(DEMO_ADMIN.email, DEMO_ADMIN.password);
  const viewer = await createStaff(admin, "viewer");
  await admin.dispose();
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": fakeClientIp() } });
  const page = await context.newPage();
  await page.goto("/sign-in?callbackUrl=%2Fcampaigns");
  await page.getByLabel("E-mail").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Campaigns" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New campaign" })).toHaveCount(0);
  await page.goto(campaignPath);
  await expect(page.getByTestId("campaign-status")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download results" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Start|Pause|Resume|Cancel|Discard)/ })).toHaveCount(0);
  await page.goto("/campaigns/new");
  await expect(page.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  await context.close();
});

// Month end without clean-up (issue 36) as a new finance head walks it in Chromium: a campaign file with the
// business's own references, started only after a question that says how many people and how much; an ask-again
// round of those who did not answer, started on a phone; each person pays one of their two requests and every
// payment is linked to the one the service says was paid, with no exception; a lost payment notice settled by hand,
// marked "recorded by hand, not verified" and exported with that mark; the references in the Xero file. Axe clean
// at 1280 and 375 px.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

import type { ExceptionPage, ExceptionView } from "../lib/client/exceptions/view";
import { BASE_URL, SANDBOX_URL, sandbox, sendRequestWithinBudget } from "./support";
import { expectAxeClean } from "./axe";

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
// Plain tags: made-up people who wait until the test answers for them in the sandbox.
const EARLY = `me${stamp}.early`;
const LATE = `me${stamp}.late`;
const LOST = `me${stamp}.lost`;
const CSV = ["Reference,tag,amount,description", `INV-E${stamp},${EARLY},15000,Month-end dues`, `INV-L${stamp},${LATE},20000,Month-end dues`].join("\n");

const headers = { Origin: BASE_URL };

async function rowsOf(request: APIRequestContext, campaignId: string): Promise<{ tag: string; requestId: string | null }[]> {
  const res = await request.get(`/api/campaigns/${campaignId}/rows`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: { items: { tag: string; requestId: string | null }[] } }).data.items;
}

async function requestIdOf(request: APIRequestContext, campaignId: string, tag: string): Promise<string> {
  const id = (await rowsOf(request, campaignId)).find((r) => r.tag === tag)?.requestId;
  if (!id) throw new Error(`no request for ${tag} in ${campaignId}`);
  return id;
}

async function paymentOf(request: APIRequestContext, requestId: string): Promise<string | null> {
  const res = await request.get(`/api/requests/${requestId}`);
  return ((await res.json()) as { data: { paymentUuid: string | null } }).data.paymentUuid;
}

/** Every open exception of `kind` about one of `tags`, over every page of the inbox, with the page it is on. */
async function openExceptionsFor(request: APIRequestContext, kind: string, tags: string[]): Promise<(ExceptionView & { onPage: number })[]> {
  const found: (ExceptionView & { onPage: number })[] = [];
  for (let page = 1; ; page++) {
    const res = await request.get(`/api/exceptions?status=open&kind=${kind}&page=${page}`);
    const data = ((await res.json()) as { data: ExceptionPage }).data;
    found.push(...data.items.filter((e) => e.tag !== null && tags.includes(e.tag)).map((e) => ({ ...e, onPage: page })));
    if (page * data.pageSize >= data.total) return found;
  }
}

/** Starts the campaign on its page: the question says how many and how much, and only "Yes" sends. */
async function startAfterTheQuestion(page: Page, campaignId: string, question: string, where: string): Promise<void> {
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("button", { name: "Start sending 2 requests" }).click();
  await expect(page.getByTestId("start-question")).toContainText(question);
  await expect(page.getByTestId("campaign-status")).toHaveAttribute("data-status", "draft");
  await expectAxeClean(page, where);
  await page.getByRole("button", { name: "Yes, send 2 requests" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveAttribute("data-status", "done", { timeout: 90_000 });
}

let firstId = "";
let roundId = "";

test("a campaign file's references ride along; it is sent only after the question; the round of the unanswered is started on a phone", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.goto("/campaigns/new");
  await page.getByLabel("Name", { exact: true }).fill(`Month end ${stamp}`);
  await page.getByLabel("CSV file").setInputFiles({ name: "month-end.csv", mimeType: "text/csv", buffer: Buffer.from(`${CSV}\n`, "utf8") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  firstId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // The rows show each reference, numbered as the spreadsheet numbers its lines (the header is line 1).
  const lines = page.getByTestId("campaign-row-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.first()).toContainText(`INV-E${stamp}`);
  await expect(lines.first().locator("td").first()).toHaveText("2");

  await startAfterTheQuestion(page, firstId, "Send 2 requests now, asking NGN 35,000.00 in all?", "a campaign's start question at 1280");

  const asked = await request.post(`/api/campaigns/${firstId}/ask-again`, { headers, data: { include: ["unanswered"], unansweredForHours: 0 } });
  expect(asked.status(), await asked.text()).toBe(201);
  roundId = ((await asked.json()) as { data: { campaign: { id: string } } }).data.campaign.id;
  await page.setViewportSize({ width: 375, height: 812 });
  await startAfterTheQuestion(page, roundId, "Send 2 requests now, asking NGN 35,000.00 in all?", "a round's start question at 375");
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("each person pays one of their two requests: every payment is linked to the one the service says was paid, with no exception", async ({ request }) => {
  test.setTimeout(180_000);
  expect(roundId, "the first test made the round").not.toBe("");
  // One pays the first ask, the other the round's.
  const paid = [await requestIdOf(request, firstId, EARLY), await requestIdOf(request, roundId, LATE)];
  const open = [await requestIdOf(request, roundId, EARLY), await requestIdOf(request, firstId, LATE)];
  for (const id of paid) await sandbox.act(id, "accept");
  await expect.poll(async () => (await Promise.all(paid.map((id) => paymentOf(request, id)))).filter(Boolean).length, { timeout: 90_000 }).toBe(2);
  for (const id of open) expect(await paymentOf(request, id)).toBeNull();
  expect(await openExceptionsFor(request, "unlinked_payment", [EARLY, LATE])).toEqual([]);

  // The Xero file carries each payment with the business's reference and the tag.
  const xero = await request.get("/api/payments/export?format=xero");
  expect(xero.status()).toBe(200);
  const text = await xero.text();
  expect(text).toContain(`INV-E${stamp} (${EARLY})`);
  expect(text).toContain(`INV-L${stamp} (${LATE})`);
});

test("a lost payment notice is settled by hand: recorded, marked everywhere it shows, and exported with the mark", async ({ page, request }) => {
  test.setTimeout(240_000);
  const made = await sendRequestWithinBudget(request, {
    tag: LOST,
    amount: "12500.00",
    description: "Month-end dues",
    businessReference: `INV-X${stamp}`,
    idempotencyKey: `me${stamp}lost`,
  });
  expect(made.status(), await made.text()).toBe(201);
  const requestId = ((await made.json()) as { data: { requestId: string } }).data.requestId;
  // The person pays, but the service's notice never comes.
  const accepted = await request.post(`${SANDBOX_URL}/sandbox/requests/${requestId}/accept`, { data: { webhook: false } });
  expect(accepted.status(), await accepted.text()).toBe(200);

  let exception: (ExceptionView & { onPage: number }) | undefined;
  await expect
    .poll(
      async () => {
        exception = (await openExceptionsFor(request, "accepted_without_payment", [LOST]))[0];
        return exception ? "open" : "not yet";
      },
      { timeout: 180_000 },
    )
    .toBe("open");
  if (!exception) throw new Error("unreachable: the poll saw it open");

  await page.goto(`/exceptions?kind=accepted_without_payment&page=${exception.onPage}`);
  const card = page.locator(`[data-testid="exception"][data-id="${exception.id}"]`);
  await card.getByRole("button", { name: "Resolve" }).click();
  const panel = card.getByTestId("resolve-panel");
  await panel.getByTestId("hand-record-toggle").check();
  await expect(panel.getByTestId("hand-amount")).toHaveValue("12500.00");
  await panel.getByTestId("hand-fees").fill("150");
  await panel.getByTestId("hand-reference").fill(`GTB-${stamp}`);
  await panel.getByLabel("Note (how this was settled)").fill("On the bank statement; the notice never came.");
  await expectAxeClean(page, "recording a payment by hand at 1280");
  await panel.getByRole("button", { name: "Resolve", exact: true }).click();
  await expect(card).toHaveCount(0);

  const uuid = await paymentOf(request, requestId);
  expect(uuid).not.toBeNull();
  await page.goto(`/payments/${uuid}`);
  await expect(page.getByTestId("verification-badge")).toHaveText(/recorded by hand, not verified/);
  await expect(page.getByTestId("hand-record")).toContainText(`reference GTB-${stamp}`);
  await expect(page.getByTestId("payment-settled")).toContainText("NGN 12,350.00");
  await expect(page.getByTestId("payment-business-reference")).toContainText(`INV-X${stamp}`);
  await page.setViewportSize({ width: 375, height: 812 });
  await expectAxeClean(page, "a payment recorded by hand at 375");

  const xero = await (await request.get("/api/payments/export?format=xero")).text();
  const line = xero.split(/\r?\n/).find((l) => l.includes(uuid ?? "-") && !l.includes("Fee:"));
  expect(line).toContain(`recorded by hand, not verified, ref GTB-${stamp}`);
  expect(line).toContain(`INV-X${stamp} (${LOST})`);
  expect(line).toContain(",12500.00,");
});

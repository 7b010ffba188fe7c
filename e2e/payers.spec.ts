// Payers and chasing (issue 23, DESIGN §12) as a finance person does it in Chromium: find a payer, open their history,
// mark one do-not-ask, chase a campaign's decliners and see the round, with axe clean and no sideways scroll on a phone.
import { expect, test, type APIRequestContext } from "@playwright/test";

import { BASE_URL, createStaff, newSession } from "./support";
import { expectAxeClean } from "./axe";

test.describe.configure({ mode: "serial" });

const stamp = Date.now().toString(36);
// The sandbox's auto users: decline.* declines, accept.* accepts and pays, each about a second after the request.
const DECLINER = `decline.pay${stamp}`;
const MARKED = `decline.dna${stamp}`;
const PAYER = `accept.pay${stamp}`;

async function setPolicy(request: APIRequestContext, declineCooldownHours: number): Promise<void> {
  const res = await request.patch("/api/settings", { headers: { Origin: BASE_URL }, data: { declineCooldownHours, maxAsksPerTag: 3 } });
  expect(res.status(), await res.text()).toBe(200);
}

let campaignId = "";

test.beforeAll(async ({ request }) => {
  const csv = ["tag,amount,description", `${DECLINER},150,Estate dues`, `${MARKED},150,Estate dues`, `${PAYER},150,Estate dues`].join("\n");
  const made = await request.post("/api/campaigns", {
    headers: { Origin: BASE_URL },
    multipart: { name: `Dues ${stamp}`, file: { name: "dues.csv", mimeType: "text/csv", buffer: Buffer.from(`${csv}\n`) } },
  });
  expect(made.status(), await made.text()).toBe(201);
  campaignId = ((await made.json()) as { data: { id: string } }).data.id;
  expect((await request.post(`/api/campaigns/${campaignId}/start`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
  // Everyone has answered: two declined, one accepted and paid.
  await expect
    .poll(
      async () => {
        const c = ((await (await request.get(`/api/campaigns/${campaignId}`)).json()) as { data: { counts: { declined: number; accepted: number } } }).data;
        return `${c.counts.declined} declined, ${c.counts.accepted} accepted`;
      },
      { timeout: 60_000 },
    )
    .toBe("2 declined, 1 accepted");
});

test.afterAll(async ({ request }) => {
  await setPolicy(request, 72);
});

test("finds a payer by tag, opens their history with the counts, and the payers page is axe clean on a laptop and a phone", async ({ page }) => {
  await page.goto("/payers");
  await page.getByLabel("Tag or name").fill(PAYER);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${PAYER.replace(/\./g, "\\.")}`));
  const row = page.getByTestId("payer-row");
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-tag", PAYER);
  await expectAxeClean(page, "/payers at 1280");
  await page.setViewportSize({ width: 375, height: 812 });
  await expectAxeClean(page, "/payers at 375");
  await page.setViewportSize({ width: 1280, height: 800 });

  await row.getByRole("link", { name: `@${PAYER}` }).click();
  await expect(page).toHaveURL(`${BASE_URL}/payers/${PAYER}`);
  await expect(page.getByRole("heading", { level: 1, name: `@${PAYER}` })).toBeVisible();
  await expect(page.getByTestId("payer-asked")).toHaveText("1");
  await expect(page.getByTestId("payer-request-row")).toHaveCount(1);
  // Paid: the payment shows in the history, with what was collected.
  await expect(page.getByTestId("payer-payment-row")).toHaveCount(1);
  await expect(page.getByTestId("payer-collected")).not.toHaveText("NGN 0.00");
  await expectAxeClean(page, "a payer at 1280");
  await page.setViewportSize({ width: 375, height: 812 });
  await expectAxeClean(page, "a payer at 375");
});

test("marks a payer do-not-ask; the form then refuses them, saying who marked it", async ({ page, request }) => {
  await page.goto(`/payers/${MARKED}`);
  await page.getByLabel("Note (why, who asked)").fill("Asked us by phone to stop");
  await page.getByRole("button", { name: "Do not ask again" }).click();
  await expect(page.getByTestId("do-not-ask-mark")).toContainText("Asked us by phone to stop");
  const res = await request.post("/api/requests", {
    headers: { Origin: BASE_URL },
    data: { tag: `@${MARKED.toUpperCase()}`, amount: "10", description: "Should be refused", idempotencyKey: `dna${stamp}` },
  });
  expect(res.status()).toBe(422);
  const body = (await res.json()) as { data: { fieldErrors: { tag: string[] } } };
  expect(body.data.fieldErrors.tag[0]).toMatch(/asked not to be asked: marked by .* on /);
  // The form shows the same refusal beside the tag, and sends nothing.
  await page.goto("/requests/new");
  await page.getByLabel("Tag of the person to ask").fill(MARKED);
  await page.getByLabel("Amount (₦)").fill("10");
  await page.getByLabel("Description").fill("Should be refused");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.locator("#req-tag-error")).toContainText("asked not to be asked");
  await expect(page).toHaveURL(/\/requests\/new$/);
});

test("chases the campaign's decliners: a draft round asks the one who may be asked and shows who is left out and why", async ({ page, request }) => {
  await setPolicy(request, 0);
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByRole("button", { name: "Make the next round" }).click();
  // The new round's own page (a draft): its name says which round it is.
  await expect(page.getByTestId("campaign-name")).toHaveText(`Dues ${stamp} — round 2`);
  await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toContain(campaignId);
  await expect(page.getByTestId("count-sendable")).toHaveText("1");
  // Everyone not asked again is listed with why: the one marked do-not-ask, and the one who paid.
  const leftOut = page.getByTestId("invalid-row");
  await expect(leftOut).toHaveCount(2);
  await expect(leftOut.filter({ hasText: MARKED })).toContainText("asked not to be asked");
  await expect(leftOut.filter({ hasText: PAYER })).toContainText("already paid");
  // The family: both rounds, and who has paid over them.
  await expect(page.getByTestId("family-round")).toHaveCount(2);
  await expect(page.getByTestId("family-paid")).toContainText("1 of 3 people asked have paid");
  await expectAxeClean(page, "a round's preview at 1280");

  // Asking again with nobody chosen is refused with the reason.
  const again = await request.post(`/api/campaigns/${campaignId}/ask-again`, { headers: { Origin: BASE_URL }, data: { include: [] } });
  expect(again.status()).toBe(422);
});

test("the payer and ask-again routes refuse bad input over HTTP, each with its status and reason", async ({ request }) => {
  const message = async (res: Awaited<ReturnType<APIRequestContext["get"]>>) => ((await res.json()) as { message: string }).message;
  // Unknown and malformed tags are not payers.
  const unknown = await request.get(`/api/payers/nobody.${stamp}`);
  expect(unknown.status()).toBe(404);
  expect(await message(unknown)).toMatch(/payer/i);
  expect((await request.get(`/api/payers/${encodeURIComponent("not a tag!")}`)).status()).toBe(404);
  expect((await request.get(`/api/campaigns/00000000-0000-4000-8000-000000000000`)).status()).toBe(404);
  // A NUL byte in a search is refused (400, in words), never a 500 from the database.
  for (const path of ["/api/payers?q=%00", "/api/requests?tag=%00", "/api/payments?q=a%00b"]) {
    const nul = await request.get(path);
    expect(nul.status(), path).toBe(400);
    expect(await message(nul)).toContain("control character");
  }
  // A path id whose %-escape does not decode is a 400 with the envelope and a code, not Next.js's plain-text 500.
  for (const path of ["/api/payers/%E0%A4%A", "/api/campaigns/%ZZ", "/plans/%E0%A4%A"]) {
    const broken = await request.get(path, { maxRedirects: 0 });
    expect(broken.status(), path).toBe(400);
    expect(await broken.json()).toMatchObject({ status: false, code: "validation_failed", message: expect.stringContaining("%-escape") });
  }
  const noCampaign = await request.post(`/api/campaigns/00000000-0000-4000-8000-000000000000/ask-again`, {
    headers: { Origin: BASE_URL },
    data: { include: ["declined"] },
  });
  expect(noCampaign.status()).toBe(404);

  const csv = `tag,amount,description\naccept.bad${stamp},20,Dues\n`;
  const made = await request.post("/api/campaigns", {
    headers: { Origin: BASE_URL },
    multipart: { name: `Bad input ${stamp}`, file: { name: "dues.csv", mimeType: "text/csv", buffer: Buffer.from(csv) } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const id = ((await made.json()) as { data: { id: string } }).data.id;
  const askAgain = (include: unknown, ctx: APIRequestContext = request) =>
    ctx.post(`/api/campaigns/${id}/ask-again`, { headers: { Origin: BASE_URL }, data: { include } });

  // A draft has asked nobody yet: 409 saying so.
  const onDraft = await askAgain(["declined"]);
  expect(onDraft.status()).toBe(409);
  expect(await message(onDraft)).toContain("still a draft");
  // A state that is not one of declined, failed, unanswered: 422 naming the field.
  const odd = await askAgain(["paid"]);
  expect(odd.status()).toBe(422);
  expect(Object.keys(((await odd.json()) as { data: { fieldErrors: Record<string, string[]> } }).data.fieldErrors).join()).toMatch(/^include/);
  // Started, with no row failed: nobody is left to ask, 409 saying why.
  expect((await request.post(`/api/campaigns/${id}/start`, { headers: { Origin: BASE_URL } })).status()).toBe(200);
  const nothing = await askAgain(["failed"]);
  expect(nothing.status()).toBe(409);
  expect(await message(nothing)).toContain("nobody to ask again");

  // A viewer may read payers but not mark them or ask again.
  const viewer = await createStaff(request, "viewer");
  const session = await newSession(viewer.email, viewer.password);
  try {
    expect((await session.get(`/api/payers/${DECLINER}`)).status()).toBe(200);
    expect((await askAgain(["failed"], session)).status()).toBe(403);
    const mark = await session.patch(`/api/payers/${DECLINER}`, { headers: { Origin: BASE_URL }, data: { doNotAsk: true, note: "" } });
    expect(mark.status()).toBe(403);
  } finally {
    await session.dispose();
  }
});

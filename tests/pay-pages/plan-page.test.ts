import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import { GET as getStatus } from "@/app/api/public/pay/[slug]/s/[token]/route";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import type { PayStatusView } from "@/lib/client/pay-pages/view";
import { payerKey } from "@/lib/client/payers/tag";
import type { Db } from "@/lib/db/client";
import { fundRequests, payPageSubmissions, planMembers } from "@/lib/db/schema";
import { createPayPage } from "@/lib/pay-pages/manage";
import { createPlan } from "@/lib/plans/repo";
import { callRoute, inProcessApp } from "@/tests/support/in-process-app";
import { acceptAndLink, freshAltcha, PAY_APP_ENV, payInit, payPageInput, payPass } from "@/tests/support/pay-challenge";
import { planFields } from "@/tests/support/plan-fields";
import { newTag } from "@/tests/support/request-deps";
import { sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress } from "@/tests/support/sign-in";

// A plan's pay page (docs/architecture.md "Pay pages"): paying joins the plan at the page's fixed amount. A payer
// becomes a member only once their request is accepted (anyone can type any tag), and a tag that pays again, in any
// spelling, is still one member.

const app = inProcessApp(PAY_APP_ENV);

let db: Db;

beforeAll(async () => {
  db = await app.db();
});

async function planPage(): Promise<{ planId: string; slug: string }> {
  const operator = await app.person("operator");
  const roster = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${newTag("chioma")},5000,Dues\n`));
  if (!roster.ok) throw new Error(roster.message);
  const planId = await createPlan(db, planFields({ name: "Estate dues" }), "Africa/Lagos", roster.rows, operator.id);
  const made = await createPayPage(db, operator, payPageInput({ planId, amount: { fixed: "5000" } }));
  if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
  return { planId, slug: made.page.slug };
}

async function submit(slug: string, spelling: string): Promise<string> {
  const answer = await callRoute<{ statusUrl: string }>(
    postPay,
    `/api/public/pay/${slug}`,
    payInit(slug, { tag: spelling, altcha: await freshAltcha() }, fakeAddress()),
  );
  expect(answer.status, answer.json.message).toBe(202);
  return answer.json.data.statusUrl.split("/").pop() ?? "";
}

async function liveMembers(planId: string, tag: string) {
  return db
    .select({ tag: planMembers.tag, amount: planMembers.amountNaira })
    .from(planMembers)
    .where(and(eq(planMembers.planId, planId), eq(planMembers.tagKey, payerKey(tag)), isNull(planMembers.removedAt), isNull(planMembers.error)));
}

async function requestOf(token: string): Promise<string> {
  const [row] = await db
    .select({ requestId: fundRequests.requestId })
    .from(payPageSubmissions)
    .innerJoin(fundRequests, eq(fundRequests.id, payPageSubmissions.fundRequestId))
    .where(eq(payPageSubmissions.token, token));
  if (!row?.requestId) throw new Error(`submission ${token} has no request at the service`);
  return row.requestId;
}

describe("a plan's pay page", () => {
  it("joins nobody on a submission alone: a tag that never pays is never a member", async () => {
    const { planId, slug } = await planPage();
    const tag = newTag("stranger");
    await submit(slug, tag);
    await payPass(db);
    expect(await liveMembers(planId, tag)).toEqual([]);
    const [submission] = await db
      .select({ status: payPageSubmissions.status })
      .from(payPageSubmissions)
      .where(eq(payPageSubmissions.tagKey, payerKey(tag)));
    expect(submission?.status).toBe("sent");
  });

  it("adds the member once they pay, once however often and in whatever spelling they pay again, and tells them on the status link", async () => {
    const { planId, slug } = await planPage();
    const control = sandboxControl(app.sandbox);
    const tag = newTag("Bola");

    const first = await submit(slug, tag);
    await payPass(db);
    await acceptAndLink(db, control, await requestOf(first));
    await payPass(db);
    expect(await liveMembers(planId, tag)).toEqual([{ tag, amount: "5000.00" }]);
    const status = await callRoute<PayStatusView>(getStatus, `/api/public/pay/${slug}/s/${first}`, { params: { slug, token: first } });
    expect(status.json.data).toMatchObject({ state: "paid", plan: "Estate dues" });

    // Paying again (another spelling of the same tag) asks again, and joins nobody new.
    const second = await submit(slug, `@${tag.toUpperCase()}`);
    await payPass(db);
    await acceptAndLink(db, control, await requestOf(second));
    await payPass(db);
    expect(await liveMembers(planId, tag)).toEqual([{ tag, amount: "5000.00" }]);
    const statuses = await db
      .select({ status: payPageSubmissions.status })
      .from(payPageSubmissions)
      .where(eq(payPageSubmissions.tagKey, payerKey(tag)));
    expect(statuses.map((s) => s.status)).toEqual(["joined", "joined"]);
  });
});

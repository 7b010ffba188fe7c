import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import { GET as getStatus } from "@/app/api/public/pay/[slug]/s/[token]/route";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { payerKey } from "@/lib/client/payers/tag";
import type { Db } from "@/lib/db/client";
import { fundRequests, payPageSubmissions, planMembers } from "@/lib/db/schema";
import { createPayPage } from "@/lib/pay-pages/manage";
import { createPlan } from "@/lib/plans/repo";
import { callRoute, inProcessApp } from "@/tests/support/in-process-app";
import { freshAltcha, PAY_APP_ENV, payInit, payPageInput, payPass } from "@/tests/support/pay-challenge";
import { planFields } from "@/tests/support/plan-fields";
import { newTag } from "@/tests/support/request-deps";
import { fakeAddress } from "@/tests/support/sign-in";

// A plan's pay page (docs/architecture.md "Pay pages"): paying joins the plan at the page's fixed amount, from its
// next period. Before the plan's first period the submission is "joined" and nothing is sent; a tag that submits
// again, in any spelling, is still one member.

const app = inProcessApp(PAY_APP_ENV);

let db: Db;

beforeAll(async () => {
  db = await app.db();
});

describe("a plan's pay page", () => {
  it("adds the member once however often the tag submits, sending nothing before the plan's first period", async () => {
    const operator = await app.person("operator");
    const roster = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${newTag("chioma")},5000,Dues\n`));
    if (!roster.ok) throw new Error(roster.message);
    const planId = await createPlan(db, planFields({ name: "Estate dues" }), "Africa/Lagos", roster.rows, operator.id);
    const made = await createPayPage(db, operator, payPageInput({ planId, amount: { fixed: "5000" } }));
    if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
    const { slug } = made.page;

    const tag = newTag("Bola");
    const submit = async (spelling: string) => {
      const answer = await callRoute<{ statusUrl: string }>(
        postPay,
        `/api/public/pay/${slug}`,
        payInit(slug, { tag: spelling, altcha: await freshAltcha() }, fakeAddress()),
      );
      expect(answer.status, answer.json.message).toBe(202);
      return answer.json.data.statusUrl.split("/").pop() ?? "";
    };
    // Twice before a pass (one pass takes both), once after it.
    const tokens = [await submit(tag), await submit(`@${tag.toLowerCase()}`)];
    await payPass(db);
    tokens.push(await submit(tag.toUpperCase()));
    await payPass(db);

    const live = await db
      .select({ tag: planMembers.tag, amount: planMembers.amountNaira })
      .from(planMembers)
      .where(and(eq(planMembers.planId, planId), eq(planMembers.tagKey, payerKey(tag)), isNull(planMembers.removedAt), isNull(planMembers.error)));
    expect(live).toEqual([{ tag, amount: "5000.00" }]);
    const submissions = await db
      .select({ status: payPageSubmissions.status, fundRequestId: payPageSubmissions.fundRequestId })
      .from(payPageSubmissions)
      .where(eq(payPageSubmissions.pageId, made.page.id));
    expect(submissions).toEqual([0, 1, 2].map(() => ({ status: "joined", fundRequestId: null })));
    expect(await db.select().from(fundRequests).where(eq(fundRequests.tag, tag))).toEqual([]);

    for (const token of tokens) {
      const status = await callRoute<{ state: string }>(getStatus, `/api/public/pay/${slug}/s/${token}`, { params: { slug, token } });
      expect([status.status, status.json.data.state]).toEqual([200, "joined"]);
    }
  });
});

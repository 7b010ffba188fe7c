import "server-only";

import { and, eq, sql } from "drizzle-orm";

import { writeAudit } from "@/lib/audit/write";
import { payerKey } from "@/lib/client/payers/tag";
import { queryRows, type Db } from "@/lib/db/client";
import { planMembers, payPageSubmissions } from "@/lib/db/schema";
import { changeMembers, findPlan } from "@/lib/plans/repo";

// A plan's pay page (docs/architecture.md "Pay pages"): paying joins the plan. A payer becomes a member only once their
// pay-page request is accepted, never on a submission alone (anyone can type any tag), and only into a plan that has
// not ended, never back into one staff removed them from. The submission then moves from `sent` to `joined`.

/** How far back accepted requests are looked for: the send job runs every minute, so a week is ample. */
const LOOK_BACK_DAYS = 7;

interface Paid {
  id: string;
  tag: string;
  amount: string;
  plan_id: string;
  slug: string;
}

export async function joinPaidMembers(db: Db, now: Date): Promise<number> {
  const paid = await queryRows<Paid>(
    db,
    sql`select s.id::text as id, s.tag, s.amount::text as amount, p.plan_id::text as plan_id, p.slug
        from pay_pages p
        join pay_page_submissions s on s.page_id = p.id and s.created_at > ${now}::timestamptz - make_interval(days => ${LOOK_BACK_DAYS})
        join fund_requests r on r.id = s.fund_request_id
        where p.plan_id is not null and s.status = 'sent' and r.status = 'accepted'
        order by s.created_at limit 100`,
  );
  let joined = 0;
  for (const row of paid) {
    const plan = await findPlan(db, row.plan_id);
    const removed = await db
      .select({ id: planMembers.id })
      .from(planMembers)
      .where(and(eq(planMembers.planId, row.plan_id), eq(planMembers.tagKey, payerKey(row.tag)), sql`${planMembers.removedAt} is not null`))
      .limit(1);
    if (plan && plan.status !== "ended" && removed.length === 0) {
      const result = await changeMembers(db, plan.id, { add: [{ tag: row.tag, amount: row.amount, description: "" }], remove: [], change: [] });
      if (result.added > 0) {
        joined += 1;
        await writeAudit(db, {
          action: "plan.members_changed",
          actor: null,
          target: plan.id,
          detail: { added: 1, removed: 0, changed: 0, unknown: 0, refused: 0, payPage: row.slug },
        });
      }
    }
    await db
      .update(payPageSubmissions)
      .set({ status: "joined" })
      .where(and(eq(payPageSubmissions.id, row.id), eq(payPageSubmissions.status, "sent")));
  }
  return joined;
}

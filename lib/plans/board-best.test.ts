import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { describe as describeAsk } from "@/lib/client/plans/schedule";
import type { BoardView } from "@/lib/client/plans/view";
import { queryRows } from "@/lib/db/client";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { insertStaff } from "@/tests/support/request-deps";

import { makePeriod } from "./periods";
import { readBoard } from "./queries";
import { createPlan, findPlan } from "./repo";

// The dues board's cell is the best outcome over a period's rounds, whichever round it came in (docs/architecture.md
// "Plans"): paid over pending over declined over failed over skipped. Its `collected` is what the paid rounds'
// payments settled (after fees), not what was asked nor what was paid.

type Outcome = "paid" | "pending" | "declined" | "failed" | "skipped";

const NOW = new Date("2026-11-25T00:00:00Z");
const FIELDS = planFields({ name: "Best outcome", descriptionTemplate: "{period} dues" });

// Each member's outcome in round 1 and in round 2, and the cell the board must show: the better one, in either order.
const MEMBERS: { tag: string; amount: number; rounds: [Outcome, Outcome]; best: Outcome }[] = [
  { tag: "best.declinedpaid", amount: 100, rounds: ["declined", "paid"], best: "paid" },
  { tag: "best.paidfailed", amount: 200, rounds: ["paid", "failed"], best: "paid" },
  { tag: "best.pendingdeclined", amount: 300, rounds: ["pending", "declined"], best: "pending" },
  { tag: "best.faileddeclined", amount: 400, rounds: ["failed", "declined"], best: "declined" },
  { tag: "best.skippedfailed", amount: 500, rounds: ["skipped", "failed"], best: "failed" },
  { tag: "best.skippedskipped", amount: 600, rounds: ["skipped", "skipped"], best: "skipped" },
];
// Paid 2 more than asked, with fees of 7: what was settled differs from both.
const PAID_OVER = 2;
const FEES = 7;

describe.each(dbTargets())("the dues board's best outcome over rounds on $name", (target) => {
  const database = useTestDatabase(target);
  let board: BoardView;

  /** Sets campaign row `row` of `campaignId` to `outcome`, with a request (and a payment when paid) where it has one. */
  async function settle(campaignId: string, row: number, tag: string, amount: number, outcome: Outcome): Promise<void> {
    const db = database.db;
    if (outcome === "skipped" || outcome === "failed") {
      await db.execute(sql`update campaign_rows set status = ${outcome} where campaign_id = ${campaignId}::uuid and row = ${row}`);
      return;
    }
    const status = outcome === "paid" ? "accepted" : outcome;
    const [request] = await queryRows<{ id: string }>(
      db,
      sql`insert into fund_requests (reference, idempotency_key, request_id, tag, amount, description, status, decided_at)
          values (${`fb_best_${randomUUID()}`}, ${`client:best-${randomUUID()}`}, ${randomUUID()}, ${tag}, ${amount}, 'Dues', ${status},
            ${status === "pending" ? null : NOW.toISOString()}::timestamptz)
          returning id`,
    );
    await db.execute(
      sql`update campaign_rows set status = 'sent', fund_request_id = ${request?.id}::uuid where campaign_id = ${campaignId}::uuid and row = ${row}`,
    );
    if (outcome === "paid")
      await db.execute(
        sql`insert into payments (uuid, type, amount, actual_amount, settled_amount, fees, description, customer_name, customer_tag,
              verification, fund_request_id, received_at)
            values (${randomUUID()}, 'peer-transfer.success', ${amount}, ${amount + PAID_OVER}, ${amount + PAID_OVER - FEES}, ${FEES}, 'Dues',
              'Best Payer', ${tag}, 'verified', ${request?.id}::uuid, ${NOW.toISOString()}::timestamptz)`,
      );
  }

  beforeAll(async () => {
    const db = database.db;
    const staff = await insertStaff(db, "Board Reader");
    const csv = `tag,amount,description\n${MEMBERS.map((m) => `${m.tag},${m.amount},`).join("\n")}\n`;
    const parsed = parseCampaignCsv(new TextEncoder().encode(csv), { describe: (own) => describeAsk(FIELDS.descriptionTemplate, own, "2026-11") });
    if (!parsed.ok) throw new Error(parsed.message);
    const planId = await createPlan(db, FIELDS, "Africa/Lagos", parsed.rows, staff.id);
    const plan = await findPlan(db, planId);
    if (!plan) throw new Error("no plan");
    const made = await makePeriod(db, plan, "2026-11");
    if (made.kind !== "made") throw new Error(`period not made: ${made.kind}`);
    const [second] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (name, status, started_at, parent_id, family_id, round) values ('Best outcome — round 2', 'done', ${NOW.toISOString()}::timestamptz,
            ${made.campaignId}::uuid, ${made.campaignId}::uuid, 2) returning id`,
    );
    for (const [i, m] of MEMBERS.entries()) {
      await settle(made.campaignId, i + 1, m.tag, m.amount, m.rounds[0]);
      await db.execute(
        sql`insert into campaign_rows (campaign_id, row, tag, amount_text, amount_naira, description, status)
            values (${second?.id}::uuid, ${i + 1}, ${m.tag}, ${String(m.amount)}, ${m.amount}, 'Dues', 'queued')`,
      );
      await settle(second?.id ?? "", i + 1, m.tag, m.amount, m.rounds[1]);
    }
    board = await readBoard(db, plan, 1, false, NOW, "all");
  });

  it("shows each member the best outcome over the rounds, in whichever round it came", () => {
    const cells = Object.fromEntries(board.members.map((m) => [m.tag, m.cells.find((c) => c.period === "2026-11")?.status]));
    expect(cells).toEqual(Object.fromEntries(MEMBERS.map((m) => [m.tag, m.best])));
  });

  it("collects what the paid rounds' payments settled, and asks what the cells ask", () => {
    const paid = MEMBERS.filter((m) => m.best === "paid");
    const settled = paid.reduce((sum, m) => sum + m.amount + PAID_OVER - FEES, 0);
    const asked = MEMBERS.filter((m) => m.best !== "skipped").reduce((sum, m) => sum + m.amount, 0);
    expect(board.totals).toEqual([{ period: "2026-11", asked: `${asked}.00`, collected: `${settled}.00`, rate: expect.any(Number) }]);
    // Neither the amounts asked of the payers (300) nor what they paid (304).
    expect(settled).not.toBe(paid.reduce((sum, m) => sum + m.amount, 0));
  });
});

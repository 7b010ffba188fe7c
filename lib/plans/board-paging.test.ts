import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { describe as describeAsk } from "@/lib/client/plans/schedule";
import { BOARD_PAGE_SIZE } from "@/lib/client/plans/view";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { insertStaff } from "@/tests/support/request-deps";

import { makePeriod } from "./periods";
import { readBoard } from "./queries";
import { createPlan, findPlan } from "./repo";

// The dues board a page of members at a time (docs/architecture.md "Plans"): a page holds BOARD_PAGE_SIZE members in
// roster order, the next page goes on where it ended, and the period totals stay over every member.

const MEMBERS = 300;
const NOW = new Date("2026-11-25T00:00:00Z");
const FIELDS = planFields({ name: "Large estate", descriptionTemplate: "{period} estate dues" });

const tagOf = (i: number) => `pagedm${String(i).padStart(4, "0")}`;
const amountOf = (i: number) => 100 + i;
/** Rows left out (skipped: not asked, not counted), failed (owing) and the rest still to answer (owing too). */
const outcome = (i: number) => (i % 7 === 0 ? "skipped" : i % 5 === 0 ? "failed" : "queued");

describe.each(dbTargets())("the dues board's pages on $name", (target) => {
  const database = useTestDatabase(target);
  let planId = "";

  beforeAll(async () => {
    const staff = await insertStaff(database.db, "Board Pager");
    const lines = Array.from({ length: MEMBERS }, (_, i) => `${tagOf(i + 1)},${amountOf(i + 1)},`);
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${lines.join("\n")}\n`), {
      describe: (own) => describeAsk(FIELDS.descriptionTemplate, own, "2026-11"),
    });
    if (!parsed.ok) throw new Error(parsed.message);
    planId = await createPlan(database.db, FIELDS, "Africa/Lagos", parsed.rows, staff.id);
    const plan = await findPlan(database.db, planId);
    if (!plan) throw new Error("no plan");
    const made = await makePeriod(database.db, plan, "2026-11");
    if (made.kind !== "made") throw new Error(`period not made: ${made.kind}`);
    // Each member's outcome set in one statement (campaign row n is roster row n).
    await database.db.execute(
      sql`update campaign_rows set status = case when row % 7 = 0 then 'skipped' when row % 5 = 0 then 'failed' else status end
          where campaign_id = ${made.campaignId}::uuid`,
    );
  });

  const board = async (owing: boolean, paging: Parameters<typeof readBoard>[5]) => {
    const plan = await findPlan(database.db, planId);
    if (!plan) throw new Error("no plan");
    return readBoard(database.db, plan, 2, owing, NOW, paging);
  };

  it("answers one page of members with the totals over every member, and page 2 goes on where page 1 ended", async () => {
    const asked = Array.from({ length: MEMBERS }, (_, i) => i + 1)
      .filter((i) => outcome(i) !== "skipped")
      .reduce((sum, i) => sum + amountOf(i), 0);
    const [one, two, last, past, all] = await Promise.all([
      board(false, { page: 1 }),
      board(false, { page: 2 }),
      board(false, { page: MEMBERS / BOARD_PAGE_SIZE }),
      board(false, { page: MEMBERS / BOARD_PAGE_SIZE + 1 }),
      board(false, "all"),
    ]);
    expect(BOARD_PAGE_SIZE).toBeLessThan(MEMBERS);
    expect({ page: one.page, pageSize: one.pageSize, total: one.total, rows: one.members.length }).toEqual({
      page: 1,
      pageSize: BOARD_PAGE_SIZE,
      total: MEMBERS,
      rows: BOARD_PAGE_SIZE,
    });
    expect(one.members.map((m) => m.tag)).toEqual(Array.from({ length: BOARD_PAGE_SIZE }, (_, i) => tagOf(i + 1)));
    expect(two.members.map((m) => m.tag)).toEqual(Array.from({ length: BOARD_PAGE_SIZE }, (_, i) => tagOf(BOARD_PAGE_SIZE + i + 1)));
    expect(last.members.at(-1)?.tag).toBe(tagOf(MEMBERS));
    expect({ rows: past.members.length, total: past.total }).toEqual({ rows: 0, total: MEMBERS });
    // Every page carries the same totals, summed over all 300 members, the CSV's read ("all") included.
    const november = { period: "2026-11", asked: `${asked}.00`, collected: "0.00", rate: 0 };
    for (const b of [one, two, last, past, all]) expect(b.totals).toEqual([{ period: "2026-10", asked: "0.00", collected: "0.00", rate: null }, november]);
    expect(all.members.map((m) => m.tag)).toEqual(Array.from({ length: MEMBERS }, (_, i) => tagOf(i + 1)));
    // A page's cells are its own members' (row 55 failed, row 56 left out, row 57 still to answer).
    const cell = (tag: string) => two.members.find((m) => m.tag === tag)?.cells.find((c) => c.period === "2026-11");
    expect([cell(tagOf(55))?.status, cell(tagOf(56))?.status, cell(tagOf(57))?.status]).toEqual(["failed", "skipped", "pending"]);
    expect(two.members.find((m) => m.tag === tagOf(56))?.owing).toBe("0.00");
    expect(two.members.find((m) => m.tag === tagOf(57))?.owing).toBe(`${amountOf(57)}.00`);
  });

  it("pages those who owe too: the filter counts and orders before the page is cut", async () => {
    const owing = Array.from({ length: MEMBERS }, (_, i) => i + 1).filter((i) => outcome(i) !== "skipped");
    const [one, two] = await Promise.all([board(true, { page: 1 }), board(true, { page: 2 })]);
    expect(one.total).toBe(owing.length);
    expect([...one.members, ...two.members].map((m) => m.tag)).toEqual(owing.slice(0, 2 * BOARD_PAGE_SIZE).map(tagOf));
  });
});

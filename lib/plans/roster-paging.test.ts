import { beforeAll, describe, expect, it } from "vitest";

import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { describe as describeAsk } from "@/lib/client/plans/schedule";
import { ROSTER_PAGE_SIZE } from "@/lib/client/plans/view";
import { markDoNotAsk } from "@/lib/payers/do-not-ask";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { insertStaff } from "@/tests/support/request-deps";

import { getPlanView } from "./queries";
import { createPlan } from "./repo";

// A plan's view carries one page of its roster (docs/architecture.md "Plans"): ROSTER_PAGE_SIZE members in roster
// order, the next page going on where it ended, while the member counts and what a run would ask stay over the whole
// roster, so the plan's page is the same size however large the plan.

const MEMBERS = 120;
const NOW = new Date("2026-11-25T00:00:00Z");
const FIELDS = planFields({ name: "Roster pages", descriptionTemplate: "{period} dues" });

const tagOf = (i: number) => `rosterpg${String(i).padStart(4, "0")}`;
/** Every tenth row has an amount that is no amount: an invalid member, listed with the reason and never asked. */
const invalid = (i: number) => i % 10 === 0;
const amountOf = (i: number) => 100 + i;
/** A valid member on the do-not-ask list: on the roster and counted a member, but left out of what a run asks. */
const DO_NOT_ASK = 7;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe.each(dbTargets())("a plan's roster pages on $name", (target) => {
  const database = useTestDatabase(target);
  let planId = "";

  beforeAll(async () => {
    const staff = await insertStaff(database.db, "Roster Pager");
    const lines = range(1, MEMBERS).map((i) => `${tagOf(i)},${invalid(i) ? "abc" : amountOf(i)},`);
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${lines.join("\n")}\n`), {
      describe: (own) => describeAsk(FIELDS.descriptionTemplate, own, "2026-11"),
    });
    if (!parsed.ok) throw new Error(parsed.message);
    planId = await createPlan(database.db, FIELDS, "Africa/Lagos", parsed.rows, staff.id);
    await markDoNotAsk(database.db, tagOf(DO_NOT_ASK), "", staff);
  });

  it("answers page 1 with 50 members in roster order, page 3 with the last 20, and the counts over the whole roster", async () => {
    const read = async (page: number) => {
      const view = await getPlanView(database.db, planId, NOW, { page });
      if (!view) throw new Error("no plan");
      return view;
    };
    const [one, two, three, past] = await Promise.all([read(1), read(2), read(3), read(4)]);
    expect(ROSTER_PAGE_SIZE).toBe(50);
    expect(one.roster.map((m) => m.row)).toEqual(range(1, 50));
    expect(one.roster.map((m) => m.tag)).toEqual(range(1, 50).map(tagOf));
    expect(two.roster.map((m) => m.row)).toEqual(range(51, 50));
    expect(three.roster.map((m) => m.row)).toEqual(range(101, 20));
    expect(three.roster.at(-1)).toMatchObject({ row: MEMBERS, tag: tagOf(MEMBERS), amount: null, error: expect.stringMatching(/^amount:/) });
    expect(past.roster).toEqual([]);
    // A page's members are as before: the amount, the reason of an invalid one, the do-not-ask mark.
    expect(one.roster[DO_NOT_ASK - 1]).toMatchObject({ row: DO_NOT_ASK, amount: `${amountOf(DO_NOT_ASK)}.00`, error: null, doNotAsk: true });
    expect(one.roster[9]).toMatchObject({ row: 10, amount: null, doNotAsk: false, error: expect.stringMatching(/^amount:/) });

    // Whatever the page, the counts and the run's question are over all 120 members.
    const valid = range(1, MEMBERS).filter((i) => !invalid(i));
    const askable = valid.filter((i) => i !== DO_NOT_ASK);
    const whole = {
      members: valid.length,
      invalidMembers: MEMBERS - valid.length,
      rosterTotal: MEMBERS,
      rosterPageSize: ROSTER_PAGE_SIZE,
      askable: { count: askable.length, amount: `${askable.reduce((sum, i) => sum + amountOf(i), 0)}.00` },
    };
    for (const [page, view] of [one, two, three, past].entries()) {
      const { members, invalidMembers, rosterTotal, rosterPageSize, askable: asks, rosterPage } = view;
      expect({ members, invalidMembers, rosterTotal, rosterPageSize, askable: asks, rosterPage }).toEqual({ ...whole, rosterPage: page + 1 });
    }
  });
});

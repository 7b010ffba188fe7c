import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { listCampaignRows } from "@/lib/campaigns/queries";
import { campaignRowKey, sendCampaignRows } from "@/lib/campaigns/send";
import { describe as describeAsk, dueAt, periodOf, type Schedule } from "@/lib/client/plans/schedule";
import type { PlanFields } from "@/lib/client/plans/schemas";
import { queryRows, type Db } from "@/lib/db/client";
import { koboToNaira, nairaToKobo } from "@/lib/client/money";
import { campaigns, fundRequests, payments, planPeriods } from "@/lib/db/schema";
import { linkPayment } from "@/lib/payments/link";
import { processDelivery } from "@/lib/webhooks/intake";
import { waitFor } from "@/tests/support/wait-for";
import { markDoNotAsk } from "@/lib/payers/do-not-ask";
import type { RequestDeps } from "@/lib/requests/deps";
import { applyServiceState } from "@/lib/requests/status";
import { saveSettings } from "@/lib/settings/repo";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { CREATE_CALL, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";

import { checkRun, CATCH_UP_HOURS, makePeriod, runPlanClock, scheduleOf } from "./periods";
import { getPlanView, readBoard } from "./queries";
import { changeMembers, changePlanStatus, createPlan, createPlanWith, findPlan } from "./repo";

// Plans (docs/architecture.md "Plans") on a real database and the sandbox: a roster kept with its invalid members, one campaign a
// period however many runs race (and two instances on Postgres), the 72-hour catch-up and the missed listing, a
// period's campaign asking each member once across a crash, chasing rounds, and the dues board.

let sb: Sandbox;
let control: SandboxControl;
beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

const HOUR = 3_600_000;
const LAGOS = "Africa/Lagos";

describe.each(dbTargets())("plans on $name", (target) => {
  const database = useTestDatabase(target);
  let deps: RequestDeps;
  let operator: { id: string; name: string };
  beforeAll(async () => {
    deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
    operator = await insertStaff(database.db, "Plan Operator");
  });
  beforeEach(async () => {
    await control.reset();
    await saveSettings(database.db, { declineCooldownHours: 0, maxAsksPerTag: 5 });
    // Each test's plans alone: earlier plans stop, and their campaigns send nothing more.
    await database.db.execute(sql`update plans set status = 'ended'`);
    await database.db.execute(sql`update campaigns set status = 'cancelled' where status in ('sending', 'paused')`);
  });

  const fields = (over: Partial<PlanFields> = {}): PlanFields => planFields(over);

  /**
   * A plan of `lines` ("tag,amount[,description]") made `createdAt` (its clock starts then): by default a fixed day
   * before its start, never one counted back from today, so what the clock owes does not move with the date the tests run.
   */
  async function plan(lines: string[], over: Partial<PlanFields> = {}, createdAt = new Date("2025-10-01T00:00:00Z")): Promise<string> {
    const f = fields(over);
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${lines.join("\n")}\n`), {
      describe: (own) => describeAsk(f.descriptionTemplate, own, "2026-W48"),
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createPlan(database.db, f, LAGOS, parsed.rows, operator.id);
    await database.db.execute(
      sql`update plans set active_since = ${createdAt.toISOString()}::timestamptz, checked_until = ${createdAt.toISOString()}::timestamptz where id = ${id}::uuid`,
    );
    return id;
  }

  const planRow = async (id: string) => {
    const row = await findPlan(database.db, id);
    if (!row) throw new Error("no plan");
    return row;
  };

  const periodCampaigns = (id: string) =>
    queryRows<{ period: string; n: number }>(
      database.db,
      sql`select period, count(*)::int as n from campaigns where plan_id = ${id}::uuid and family_id is null group by period order by period`,
    );

  async function answer(campaignId: string, row: number, status: "accepted" | "declined", hoursAgo = 1): Promise<void> {
    const [r] = await database.db
      .select({ requestId: fundRequests.requestId })
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, campaignRowKey(campaignId, row)));
    await applyServiceState(database.db, r?.requestId ?? "", {
      status,
      requestedBy: { name: "Biz", tag: "biz" },
      requestedSentTo: { name: "Member", tag: "x" },
      serviceCreatedAt: null,
      serviceUpdatedAt: new Date(Date.now() - hoursAgo * HOUR),
    });
  }

  it("makes a plan with what follows it in one transaction: when that fails, no plan and no member is left", async () => {
    const name = `Atomic ${newTag("atomic")}`;
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount\n${newTag("atom")},100\n`), { describe: (own) => own || "dues" });
    if (!parsed.ok) throw new Error(parsed.message);
    const failed = await createPlanWith(database.db, fields({ name }), LAGOS, parsed.rows, operator.id, async () => {
      throw new Error("the view could not be built");
    }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    const left = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from plans where name = ${name}`);
    expect(left[0]?.n).toBe(0);
    const made = await createPlanWith(database.db, fields({ name }), LAGOS, parsed.rows, operator.id, async (tx, id) => getPlanView(tx, id));
    expect(made).toMatchObject({ name, members: 1 });
  });

  it("keeps a roster's invalid rows and repeated tags as members marked with the reason", async () => {
    const [a, b] = [newTag("roster"), newTag("roster")];
    const id = await plan([`${a},100,`, `${b},abc,`, `@${a.toUpperCase()},200,`, `not a tag!,50,`]);
    const members = await queryRows<{ row: number; error: string | null }>(
      database.db,
      sql`select row, error from plan_members where plan_id = ${id}::uuid order by row`,
    );
    expect(members.map((m) => [m.row, m.error === null])).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, false],
    ]);
    expect(members[2]?.error).toBe("This person is already a member (row 1): one ask a person a period.");
    expect(members[1]?.error).toMatch(/^amount:/);
    // The plan's page lists the roster as it is: each member with their amount, the invalid ones with the reason.
    await markDoNotAsk(database.db, a, "", operator);
    const view = await getPlanView(database.db, id);
    expect(view?.roster.map((m) => [m.row, m.tag, m.amount, m.error === null, m.doNotAsk])).toEqual([
      [1, a, "100.00", true, true],
      [2, b, null, false, false],
      [3, a.toUpperCase(), null, false, true],
      [4, "not a tag!", null, false, false],
    ]);
    expect([view?.members, view?.invalidMembers]).toEqual([1, 3]);
  });

  it("makes one campaign a period however many runs race, and sends each member once", async () => {
    const tags = [newTag("race"), newTag("race"), newTag("race")];
    const id = await plan(tags.map((t, i) => `${t},${100 + i},`));
    const row = await planRow(id);
    const others = database.kind === "postgres" ? [await database.reopen(), await database.reopen()] : [];
    try {
      const dbs: Db[] = [database.db, ...others.map((o) => o.db)];
      const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => makePeriod(dbs[i % dbs.length] ?? database.db, row, "2026-11")));
      expect(outcomes.filter((o) => o.kind === "made")).toHaveLength(1);
      expect(await periodCampaigns(id)).toEqual([{ period: "2026-11", n: 1 }]);
      // Two senders at once: each member is asked once.
      await control.resetStats();
      await Promise.all([sendCampaignRows(deps, 10), sendCampaignRows({ ...deps, db: dbs[1] ?? database.db }, 10)]);
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ more: false });
      expect(await control.count(CREATE_CALL)).toBe(3);
      const made = outcomes.find((o) => o.kind === "made");
      if (made?.kind !== "made") throw new Error("no period made");
      const asked = (await listCampaignRows(database.db, made.campaignId, { page: 1 }, 10)).items;
      expect(asked.map((r) => `${r.tag} ${r.status} ${r.description}`)).toEqual(tags.map((t) => `${t} sent 2026-11 estate dues`));
    } finally {
      for (const o of others) await o.close();
    }
  });

  it("makes a due period once when the clock ticks on two instances at once", async () => {
    const id = await plan([`${newTag("tick")},100,`, `${newTag("tick")},200,`]);
    const row = await planRow(id);
    const now = new Date(dueAt(scheduleOf(row), "2026-10").getTime() + HOUR);
    const other = database.kind === "postgres" ? await database.reopen() : null;
    try {
      const passes = await Promise.all([runPlanClock(database.db, now), runPlanClock(other?.db ?? database.db, now), runPlanClock(database.db, now)]);
      expect(passes.flatMap((p) => p.made.filter((m) => m.planId === id && m.period === "2026-10"))).toHaveLength(1);
      expect((await periodCampaigns(id)).filter((p) => p.period === "2026-10")).toEqual([{ period: "2026-10", n: 1 }]);
    } finally {
      await other?.close();
    }
  });

  it("leaves no period behind a crash before its commit, and the clock then makes it once", async () => {
    const id = await plan([`${newTag("crash")},100,`]);
    const row = await planRow(id);
    // The process dies inside the making transaction (after the campaign's insert, before the commit).
    const { createCampaign } = await import("@/lib/campaigns/repo");
    await expect(
      createCampaign(database.db, "dies", [], operator.id, {
        plan: { planId: id, period: "2026-11" },
        start: true,
        inTransaction: async () => {
          throw new Error("killed");
        },
      }),
    ).rejects.toThrow("killed");
    expect(await periodCampaigns(id)).toEqual([]);
    expect(await queryRows(database.db, sql`select 1 from plan_periods where plan_id = ${id}::uuid`)).toEqual([]);
    const now = new Date(dueAt(scheduleOf(row), "2026-11").getTime() + HOUR);
    const first = await runPlanClock(database.db, now);
    const again = await runPlanClock(database.db, new Date(now.getTime() + 60_000));
    expect(first.made.map((m) => m.period)).toContain("2026-11");
    expect(again.made).toEqual([]);
    expect((await periodCampaigns(id)).filter((p) => p.period === "2026-11")).toEqual([{ period: "2026-11", n: 1 }]);
  });

  it("lets a person run the current period before its day; the clock then leaves it alone, and the next period is future", async () => {
    const id = await plan([`${newTag("early")},100,`], { day: 28, startsOn: "2026-08-01" }, new Date("2026-11-01T00:00:00Z"));
    const row = await planRow(id);
    // 5 November in Lagos: November's day (the 28th) has not come.
    const early = new Date("2026-11-05T10:00:00Z");
    expect(await checkRun(database.db, row, "2026-11", early)).toEqual({ ok: true });
    expect(await checkRun(database.db, row, "2026-12", early)).toEqual({ ok: false, reason: "future" });
    expect(await makePeriod(database.db, row, "2026-11", operator)).toMatchObject({ kind: "made" });
    const onTheDay = new Date(dueAt(scheduleOf(row), "2026-11").getTime() + 60_000);
    expect((await runPlanClock(database.db, onTheDay)).made).toEqual([]);
    expect(await periodCampaigns(id)).toEqual([{ period: "2026-11", n: 1 }]);
  });

  it("makes a period up to 72 hours late, lists older ones as missed, and lets a person run a missed or current one, not a future one", async () => {
    const id = await plan([`${newTag("late")},100,`], { startsOn: "2026-08-01" }, new Date("2026-07-20T00:00:00Z"));
    const row = await planRow(id);
    const schedule: Schedule = scheduleOf(row);
    // No server ran from before September's period until 71 h after November's.
    await database.db.execute(sql`update plans set checked_until = '2026-08-15T00:00:00Z' where id = ${id}::uuid`);
    const back = new Date(dueAt(schedule, "2026-11").getTime() + (CATCH_UP_HOURS - 1) * HOUR);
    const pass = await runPlanClock(database.db, back);
    expect(pass.made.map((m) => m.period)).toEqual(["2026-11"]);
    expect(pass.missed.map((m) => m.period)).toEqual(["2026-09", "2026-10"]);
    const listed = await database.db.select({ period: planPeriods.period, status: planPeriods.status }).from(planPeriods).where(eq(planPeriods.planId, id));
    expect(listed.sort((a, b) => a.period.localeCompare(b.period))).toEqual([
      { period: "2026-09", status: "missed" },
      { period: "2026-10", status: "missed" },
      { period: "2026-11", status: "made" },
    ]);
    // A missed period is never made by the clock; a person may run it, once.
    expect((await runPlanClock(database.db, new Date(back.getTime() + HOUR))).made).toEqual([]);
    expect(await checkRun(database.db, row, "2026-10", back)).toEqual({ ok: true });
    expect(await makePeriod(database.db, row, "2026-10", operator)).toMatchObject({ kind: "made" });
    expect(await checkRun(database.db, row, "2026-10", back)).toEqual({ ok: false, reason: "made" });
    expect(await checkRun(database.db, row, "2026-11", back)).toEqual({ ok: false, reason: "made" });
    expect(await checkRun(database.db, row, "2026-12", back)).toEqual({ ok: false, reason: "future" });
    expect(await checkRun(database.db, row, "2026-07", back)).toEqual({ ok: false, reason: "not_in_plan" });
    expect(await checkRun(database.db, row, "2026-W48", back)).toEqual({ ok: false, reason: "not_a_period" });
    // A past period that is not listed missed (the plan started in August; its clock never looked at August) is not run.
    expect(await checkRun(database.db, row, "2026-08", back)).toEqual({ ok: false, reason: "past" });
    const [october] = await database.db
      .select({ madeBy: planPeriods.madeBy })
      .from(planPeriods)
      .where(sql`${planPeriods.planId} = ${id}::uuid and ${planPeriods.period} = '2026-10'`);
    expect(october?.madeBy).toBe(operator.id);
  });

  it("asks nobody while paused, and a member change holds from the next period on", async () => {
    const [stay, go, added] = [newTag("stay"), newTag("go"), newTag("added")];
    const id = await plan([`${stay},100,`, `${go},100,`]);
    const row = await planRow(id);
    expect(await makePeriod(database.db, row, "2026-10")).toMatchObject({ kind: "made" });
    const result = await changeMembers(database.db, id, {
      add: [{ tag: added, amount: "70.00", description: "" }],
      remove: [go],
      change: [{ tag: stay, amount: "150.00" }],
    });
    expect(result).toMatchObject({ added: 1, removed: 1, changed: 1, unknown: [], refused: [] });
    await changePlanStatus(database.db, id, "pause");
    expect((await runPlanClock(database.db, new Date(dueAt(scheduleOf(row), "2026-11").getTime() + HOUR))).made.filter((m) => m.planId === id)).toEqual([]);
    await changePlanStatus(database.db, id, "resume");
    // What fell due while the clock was not looking is listed missed on resume, never sent by itself.
    const listed = await database.db.select({ period: planPeriods.period, status: planPeriods.status }).from(planPeriods).where(eq(planPeriods.planId, id));
    const status = new Map(listed.map((l) => [l.period, l.status]));
    expect([status.get("2026-09"), status.get("2026-10"), status.get("2026-11")]).toEqual(["missed", "made", "missed"]);
    expect((await runPlanClock(database.db, new Date(Date.now() + 60_000))).made.filter((m) => m.planId === id)).toEqual([]);
    const made = await makePeriod(database.db, await planRow(id), "2026-11");
    if (made.kind !== "made") throw new Error("not made");
    const rows = (await listCampaignRows(database.db, made.campaignId, { page: 1 }, 10)).items.map((r) => `${r.tag} ${r.amount}`);
    expect(rows).toEqual([`${stay} 150.00`, `${added} 70.00`]);
    expect(await changePlanStatus(database.db, id, "resume")).toBeNull();
  });

  it("makes a period 71 h 59 min late, and lists one exactly 72 hours late as missed", async () => {
    const timeFor = async (lateMs: number) => {
      const id = await plan([`${newTag("edge")},100,`], { startsOn: "2026-10-01" }, new Date("2026-09-20T00:00:00Z"));
      const row = await planRow(id);
      await database.db.execute(sql`update plans set checked_until = '2026-10-15T00:00:00Z' where id = ${id}::uuid`);
      return runPlanClock(database.db, new Date(dueAt(scheduleOf(row), "2026-11").getTime() + lateMs));
    };
    const justInTime = await timeFor(CATCH_UP_HOURS * HOUR - 60_000);
    expect(justInTime.made.map((m) => m.period)).toContain("2026-11");
    const tooLate = await timeFor(CATCH_UP_HOURS * HOUR);
    expect(tooLate.made.map((m) => m.period)).not.toContain("2026-11");
    expect(tooLate.missed.map((m) => m.period)).toContain("2026-11");
  });

  it("leaves a do-not-ask member out of a period with the reason", async () => {
    const [ok, marked] = [newTag("okmember"), newTag("dnamember")];
    const id = await plan([`${ok},100,`, `${marked},100,`]);
    await markDoNotAsk(database.db, marked, "Moved out", operator);
    const made = await makePeriod(database.db, await planRow(id), "2026-11");
    if (made.kind !== "made") throw new Error("not made");
    expect((await listCampaignRows(database.db, made.campaignId, { page: 1 }, 10)).items.map((r) => `${r.tag} ${r.status} ${r.leftOut ?? ""}`)).toEqual([
      `${ok} queued `,
      `${marked} invalid do_not_ask`,
    ]);
  });

  it("a person's run leaves out a member cooling down after a decline, saying until when; the clock's period asks them", async () => {
    await saveSettings(database.db, { declineCooldownHours: 72, maxAsksPerTag: 5 });
    const [ok, cool] = [newTag("runok"), newTag("runcool")];
    const id = await plan([`${ok},100,`, `${cool},100,`]);
    const october = await makePeriod(database.db, await planRow(id), "2026-10");
    if (october.kind !== "made") throw new Error("not made");
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2 });
    await answer(october.campaignId, 2, "declined", 1);
    const run = await makePeriod(database.db, await planRow(id), "2026-11", operator);
    if (run.kind !== "made") throw new Error("not made");
    const rows = (await listCampaignRows(database.db, run.campaignId, { page: 1 }, 10)).items;
    expect(rows.map((r) => `${r.tag} ${r.status} ${r.leftOut ?? ""}`)).toEqual([`${ok} queued `, `${cool} invalid cooling_down`]);
    expect(rows[1]?.error).toMatch(/^Left out: declined recently \(cooling down until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}\)$/);
    const byClock = await makePeriod(database.db, await planRow(id), "2026-12");
    if (byClock.kind !== "made") throw new Error("not made");
    expect((await listCampaignRows(database.db, byClock.campaignId, { page: 1 }, 10)).items.map((r) => r.status)).toEqual(["queued", "queued"]);
  });

  it("a chase that finds only people cooling down after a decline waits and asks them once the cool-down is over", async () => {
    await saveSettings(database.db, { declineCooldownHours: 72, maxAsksPerTag: 5 });
    const decliner = newTag("cool");
    const id = await plan([`${decliner},200,`], { chaseAfterHours: 24, chaseTimes: 1, chaseInclude: ["declined"] });
    const made = await makePeriod(database.db, await planRow(id), "2026-11");
    if (made.kind !== "made") throw new Error("not made");
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1 });
    await answer(made.campaignId, 1, "declined", 30);
    // The clock at a fixed moment mid-month, so no other period falls due whatever today is.
    const now = new Date("2026-11-15T12:00:00Z");
    await database.db
      .update(campaigns)
      .set({ startedAt: new Date(now.getTime() - 31 * HOUR) })
      .where(eq(campaigns.id, made.campaignId));
    // Declined 30 h ago, inside the 72 h cool-down: nobody to ask yet, and no round spent.
    expect((await runPlanClock(database.db, now)).chased).toEqual([]);
    const [period] = await database.db.select().from(planPeriods).where(eq(planPeriods.campaignId, made.campaignId));
    expect(period?.chaseRounds).toBe(0);
    expect(period?.chaseNextAt?.getTime()).toBe(now.getTime() + 24 * HOUR);
    // Not looked at again before then.
    expect((await runPlanClock(database.db, new Date(now.getTime() + HOUR))).chased).toEqual([]);
    // The cool-down has passed (the decline is 80 h old) by the next look: the round is made.
    await database.db.execute(sql`update fund_requests set decided_at = now() - interval '80 hours' where status = 'declined' and tag = ${decliner}`);
    expect((await runPlanClock(database.db, new Date(now.getTime() + 25 * HOUR))).chased).toHaveLength(1);
  });

  it("with two periods open for the same amount, each payment links to the period the service says was paid, and the board's collected is their settled sum", async () => {
    const [ada, bola] = [newTag("twoperiods"), newTag("twoperiods")];
    const id = await plan([`${ada},150,`, `${bola},250,`]);
    const row = await planRow(id);
    const october = await makePeriod(database.db, row, "2026-10");
    const november = await makePeriod(database.db, row, "2026-11");
    if (october.kind !== "made" || november.kind !== "made") throw new Error("periods not made");
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 4, more: false });
    // Both pay November; October stays open at the service.
    const uuids: string[] = [];
    for (const r of [1, 2]) {
      const [req] = await database.db
        .select({ requestId: fundRequests.requestId })
        .from(fundRequests)
        .where(eq(fundRequests.idempotencyKey, campaignRowKey(november.campaignId, r)));
      const requestId = req?.requestId ?? "";
      await control.accept(requestId);
      const d = await waitFor("the sandbox's webhook", async () => (await control.deliveries()).find((x) => String(x.request_id) === requestId));
      const result = await processDelivery(
        { db: database.db, apiKey: sb.apiKey, amountUnit: "major" },
        { raw: Buffer.from(d.body), signature: d.signature, contentType: "application/json", remoteAddr: null },
      );
      uuids.push(result.recordedUuid ?? "");
      expect(await linkPayment(deps, result.recordedUuid ?? "")).toEqual({ linked: true, requestId });
    }
    const settled = await database.db.select({ settled: payments.settledAmount }).from(payments).where(inArray(payments.uuid, uuids));
    const sum = koboToNaira(settled.reduce((k, s) => k + (nairaToKobo(s.settled) ?? 0n), 0n));
    const board = await readBoard(database.db, row, 2, false, new Date("2026-11-25T00:00:00Z"));
    expect(board.totals).toEqual([
      { period: "2026-10", asked: "400.00", collected: "0.00", rate: 0 },
      { period: "2026-11", asked: "400.00", collected: sum, rate: 1 },
    ]);
    expect(sum).not.toBe("0.00");
  });

  it("chases a period after its hours, at most its rounds, and the board shows the best outcome over the rounds", async () => {
    const [payer, decliner, later, quiet] = [newTag("bpay"), newTag("bdecline"), newTag("blater"), newTag("bquiet")];
    const id = await plan([`${payer},100,`, `${decliner},200,`, `${later},300,`, `${quiet},400,`], {
      chaseAfterHours: 24,
      chaseTimes: 1,
      chaseInclude: ["declined"],
    });
    const row = await planRow(id);
    const made = await makePeriod(database.db, row, "2026-11");
    if (made.kind !== "made") throw new Error("not made");
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 4, more: false });
    await answer(made.campaignId, 1, "accepted");
    await answer(made.campaignId, 2, "declined", 30);
    await answer(made.campaignId, 3, "declined", 30);
    // The period's round started 25 h before the clock's (fixed, mid-month) moment: the chase is due.
    const now = new Date("2026-11-15T12:00:00Z");
    await database.db
      .update(campaigns)
      .set({ startedAt: new Date(now.getTime() - 25 * HOUR) })
      .where(eq(campaigns.id, made.campaignId));
    const pass = await runPlanClock(database.db, now);
    expect(pass.chased).toHaveLength(1);
    expect((await runPlanClock(database.db, new Date(now.getTime() + 48 * HOUR))).chased).toEqual([]);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2, more: false });
    const round = pass.chased[0]?.campaignId ?? "";
    // Round 2 lists everyone (the payer and the quiet one left out, with why): its third row, the one who declined
    // before, now pays.
    await answer(round, 3, "accepted", 0);

    const board = await readBoard(database.db, row, 3, false, new Date("2026-11-25T00:00:00Z"));
    expect(board.periods).toEqual(["2026-09", "2026-10", "2026-11"]);
    const cell = (tag: string) => board.members.find((m) => m.tag === tag)?.cells.find((c) => c.period === "2026-11");
    expect(cell(payer)).toMatchObject({ status: "paid", amount: "100.00" });
    // Declined in the first round and asked again: still pending, the better of the two.
    expect(cell(decliner)?.status).toBe("pending");
    expect(cell(later)).toMatchObject({ status: "paid", amount: "300.00" });
    expect(cell(quiet)?.status).toBe("pending");
    expect(board.members.find((m) => m.tag === payer)?.cells[0]?.status).toBe("not_asked");
    expect(board.members.find((m) => m.tag === decliner)?.owing).toBe("200.00");
    expect(board.totals.find((t) => t.period === "2026-11")).toMatchObject({ asked: "1000.00", rate: 0.4 });
    const owing = await readBoard(database.db, row, 3, true, new Date("2026-11-25T00:00:00Z"));
    expect(owing.members.map((m) => m.tag).sort()).toEqual([decliner, quiet].sort());
  });

  it("chases a period at most its times rounds: once they are spent, no further round is made or sent however far the clock moves", async () => {
    const member = newTag("times");
    const id = await plan(
      [`${member},100,`],
      { endsOn: "2026-11-30", chaseAfterHours: 24, chaseTimes: 2, chaseInclude: ["declined"] },
      new Date("2026-10-20T00:00:00Z"),
    );
    const due = dueAt(scheduleOf(await planRow(id)), "2026-11");
    const at = (hours: number) => new Date(due.getTime() + hours * HOUR);
    /** The round is sent and declined; it started at `startedAt` on the test's clock (the chase counts its hours from then). */
    const declined = async (campaignId: string, startedAt: Date) => {
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1, more: false });
      await answer(campaignId, 1, "declined");
      await database.db.update(campaigns).set({ startedAt }).where(eq(campaigns.id, campaignId));
    };
    const made = (await runPlanClock(database.db, at(0.01))).made.find((m) => m.planId === id);
    if (!made) throw new Error("the period was not made");
    await declined(made.campaignId, at(0));
    // Two chases, each 24 h after the round before started and declined again: rounds 2 and 3.
    for (const hours of [25, 50]) {
      const pass = await runPlanClock(database.db, at(hours));
      expect(pass.chased.map((c) => [c.planId, c.period])).toEqual([[id, "2026-11"]]);
      await declined(pass.chased[0]?.campaignId ?? "", at(hours));
    }
    // The two rounds are spent: declined again, the period is never chased again, a day or a year on.
    await control.resetStats();
    for (const hours of [75, 100, 24 * 30, 24 * 365]) expect((await runPlanClock(database.db, at(hours))).chased).toEqual([]);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    expect(await control.count(CREATE_CALL)).toBe(0);
    const rounds = await queryRows<{ round: number }>(
      database.db,
      sql`select round from campaigns where id = ${made.campaignId}::uuid or family_id = ${made.campaignId}::uuid order by round`,
    );
    expect(rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    const [period] = await database.db.select({ rounds: planPeriods.chaseRounds }).from(planPeriods).where(eq(planPeriods.campaignId, made.campaignId));
    expect(period?.rounds).toBe(2);
  });

  it("on resume lists the periods due while paused as missed and sends none of them; the next period is the clock's again", async () => {
    const id = await plan([`${newTag("resume")},100,`], { startsOn: "2026-08-01", endsOn: "2026-12-31" }, new Date("2026-08-20T00:00:00Z"));
    const schedule = scheduleOf(await planRow(id));
    const at = (period: string, hours: number) => new Date(dueAt(schedule, period).getTime() + hours * HOUR);
    expect((await runPlanClock(database.db, at("2026-09", 1))).made.map((m) => m.period)).toEqual(["2026-09"]);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1, more: false });
    expect(await changePlanStatus(database.db, id, "pause", at("2026-09", 2))).toMatchObject({ status: "paused" });
    // Paused: October's and November's days pass with nobody asked.
    expect((await runPlanClock(database.db, at("2026-10", 1))).made).toEqual([]);
    expect((await runPlanClock(database.db, at("2026-11", 1))).made).toEqual([]);
    // Resumed two hours after November's send time: October (a month late) and November (well inside the 72 h a
    // server coming back would catch up) are both listed missed, and the clock sends neither.
    await control.resetStats();
    expect(await changePlanStatus(database.db, id, "resume", at("2026-11", 2))).toMatchObject({ status: "active" });
    for (const hours of [2.5, 24, 71]) expect((await runPlanClock(database.db, at("2026-11", hours))).made).toEqual([]);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    expect(await control.count(CREATE_CALL)).toBe(0);
    const listed = await database.db.select({ period: planPeriods.period, status: planPeriods.status }).from(planPeriods).where(eq(planPeriods.planId, id));
    expect(listed.sort((a, b) => a.period.localeCompare(b.period))).toEqual([
      { period: "2026-09", status: "made" },
      { period: "2026-10", status: "missed" },
      { period: "2026-11", status: "missed" },
    ]);
    // A person may run a missed one; December is the clock's to make, at its time.
    expect(await checkRun(database.db, await planRow(id), "2026-10", at("2026-11", 3))).toEqual({ ok: true });
    expect((await runPlanClock(database.db, at("2026-12", 1))).made.map((m) => m.period)).toEqual(["2026-12"]);
  });

  it("a plan paused and resumed within 72 hours lists the period due in the pause as missed, not sent, though only hours late", async () => {
    const id = await plan([`${newTag("brief")},100,`], { startsOn: "2026-10-01", endsOn: "2026-12-31" }, new Date("2026-10-20T00:00:00Z"));
    const due = dueAt(scheduleOf(await planRow(id)), "2026-11");
    const at = (hours: number) => new Date(due.getTime() + hours * HOUR);
    expect((await runPlanClock(database.db, at(-1))).made).toEqual([]);
    await changePlanStatus(database.db, id, "pause", at(-1));
    expect((await runPlanClock(database.db, at(1))).made).toEqual([]);
    await control.resetStats();
    // Three hours paused, November's send time inside them: on resume it is listed missed (a person may run it).
    expect(await changePlanStatus(database.db, id, "resume", at(2))).toMatchObject({ status: "active" });
    expect((await runPlanClock(database.db, at(3))).made).toEqual([]);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    expect(await control.count(CREATE_CALL)).toBe(0);
    const listed = await database.db.select({ period: planPeriods.period, status: planPeriods.status }).from(planPeriods).where(eq(planPeriods.planId, id));
    expect(listed).toEqual([{ period: "2026-11", status: "missed" }]);
    expect(await periodCampaigns(id)).toEqual([]);
  });

  it("a plan in its own time zone makes its period at its own send time, not at Lagos's", async () => {
    const id = await plan(
      [`${newTag("newyork")},100,`],
      { timeZone: "America/New_York", startsOn: "2026-11-01", endsOn: "2026-12-31" },
      new Date("2026-11-20T00:00:00Z"),
    );
    const row = await planRow(id);
    expect(row.timeZone).toBe("America/New_York");
    // 09:00 on 1 December in New York (EST, UTC−5) is 14:00 UTC; in Lagos it would have been 08:00 UTC.
    expect(dueAt(scheduleOf(row), "2026-12").toISOString()).toBe("2026-12-01T14:00:00.000Z");
    for (const tick of ["2026-12-01T08:00:00Z", "2026-12-01T13:59:00Z"]) expect((await runPlanClock(database.db, new Date(tick))).made).toEqual([]);
    // Already 1 December in Lagos, still November in New York: December is the plan's next period, not its current one.
    expect(await checkRun(database.db, row, "2026-12", new Date("2026-12-01T04:30:00Z"))).toEqual({ ok: false, reason: "future" });
    expect((await runPlanClock(database.db, new Date("2026-12-01T14:00:00Z"))).made.map((m) => m.period)).toEqual(["2026-12"]);
    const [period] = await database.db.select({ dueAt: planPeriods.dueAt }).from(planPeriods).where(eq(planPeriods.planId, id));
    expect(period?.dueAt.toISOString()).toBe("2026-12-01T14:00:00.000Z");
  });

  it("a London send time in the hour the clocks skip is made once, an hour later on the wall clock; in the hour they repeat, once, at its first showing", async () => {
    const id = await plan(
      [`${newTag("london")},100,`],
      { frequency: "weekly", day: 7, sendAt: "01:30", timeZone: "Europe/London", startsOn: "2027-03-01", endsOn: "2027-11-30" },
      new Date("2027-03-27T00:00:00Z"),
    );
    /** The clock ticking every quarter of an hour from `from` for `hours`: what it made, and when. */
    const night = async (from: string, hours: number) => {
      const made: string[] = [];
      for (let q = 0; q <= hours * 4; q++) {
        const tick = new Date(Date.parse(from) + q * 15 * 60_000);
        for (const m of (await runPlanClock(database.db, tick)).made) made.push(`${m.period} ${tick.toISOString()}`);
      }
      return made;
    };
    // Sunday 28 March 2027: at 01:00 GMT the clocks go to 02:00 BST, so 01:30 is never shown. The period is made once,
    // at 02:30 BST (01:30 UTC, the instant 01:30 GMT would have been).
    expect(await night("2027-03-27T23:00:00Z", 4)).toEqual([`${periodOf("weekly", "2027-03-28")} 2027-03-28T01:30:00.000Z`]);
    // Sunday 31 October 2027: at 02:00 BST the clocks go back to 01:00 GMT, so 01:30 is shown twice (00:30 and 01:30
    // UTC). The period is made once, at the first.
    const lastLook = "2027-10-30T22:00:00Z";
    await database.db.execute(sql`update plans set active_since = ${lastLook}::timestamptz, checked_until = ${lastLook}::timestamptz where id = ${id}::uuid`);
    expect(await night("2027-10-30T23:00:00Z", 4)).toEqual([`${periodOf("weekly", "2027-10-31")} 2027-10-31T00:30:00.000Z`]);
    expect(await periodCampaigns(id)).toEqual([
      { period: periodOf("weekly", "2027-03-28"), n: 1 },
      { period: periodOf("weekly", "2027-10-31"), n: 1 },
    ]);
  });
});

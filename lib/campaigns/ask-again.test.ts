import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { askAgainSchema } from "@/lib/client/campaigns/schemas";
import { campaignRows, fundRequests } from "@/lib/db/schema";
import { markDoNotAsk } from "@/lib/payers/do-not-ask";
import type { RequestDeps } from "@/lib/requests/deps";
import { applyServiceState } from "@/lib/requests/status";
import { saveSettings } from "@/lib/settings/repo";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { CREATE_CALL, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";

import { askAgain } from "./ask-again";
import { parseCampaignCsv } from "./parse";
import { getCampaignView, listCampaignRows } from "./queries";
import { createCampaign, RoundDraftExistsError, transitionCampaign } from "./repo";
import { campaignRowKey, sendCampaignRows } from "./send";

// Ask again (docs/architecture.md "Payers and chasing") on a real database and the sandbox: which rows a round asks, every reason a row is left
// out, and a round sent across a crash asking each person once.

let sb: Sandbox;
let control: SandboxControl;
beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

const HOUR = 3_600_000;

describe.each(dbTargets())("ask again on $name", (target) => {
  const database = useTestDatabase(target);
  let deps: RequestDeps;
  let operator: { id: string; name: string };
  beforeAll(async () => {
    deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
    operator = await insertStaff(database.db, "Chase Operator");
  });
  beforeEach(async () => {
    await control.reset();
    await saveSettings(database.db, { declineCooldownHours: 72, maxAsksPerTag: 3 });
  });

  /** A started campaign of `tags` (in file order, one naira more each), every row sent to the sandbox. */
  async function sentCampaign(name: string, tags: string[]): Promise<string> {
    const csv = `tag,amount,description\n${tags.map((t, i) => `${t},${100 + i},${name} dues`).join("\n")}\n`;
    const parsed = parseCampaignCsv(new TextEncoder().encode(csv));
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createCampaign(database.db, name, parsed.rows, operator.id);
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 50)).toMatchObject({ more: false });
    return id;
  }

  /** Gives row `row` of campaign `id` the person's answer, `hoursAgo` hours ago. */
  async function answered(id: string, row: number, status: "accepted" | "declined", hoursAgo = 100): Promise<void> {
    const [r] = await database.db
      .select({ requestId: fundRequests.requestId })
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, campaignRowKey(id, row)));
    const at = new Date(Date.now() - hoursAgo * HOUR);
    await applyServiceState(database.db, r?.requestId ?? "", {
      status,
      requestedBy: { name: "Biz", tag: "biz" },
      requestedSentTo: { name: "Someone", tag: "x" },
      serviceCreatedAt: null,
      serviceUpdatedAt: at,
    });
  }

  const rowsOf = async (id: string) =>
    (await listCampaignRows(database.db, id, { page: 1 }, 100)).items.map((r) => `${r.tag} ${r.status}${r.leftOut ? ` ${r.leftOut}` : ""}`);

  it("asks the chosen states again and leaves out each person the policy keeps out, with the reason", async () => {
    const t = Array.from({ length: 6 }, () => newTag("chase"));
    // Rows: 1 declined long ago, 2 declined an hour ago, 3 declined long ago but marked do-not-ask, 4 declined long ago
    // and still open on row 5 (same tag), 6 declined long ago and paid on row 7 (same tag), 8 still to answer.
    const id = await sentCampaign("Estate", [t[0], t[1], t[2], t[3], t[3], t[4], t[4], t[5]].map(String));
    await answered(id, 1, "declined");
    await answered(id, 2, "declined", 1);
    await answered(id, 3, "declined");
    await answered(id, 4, "declined");
    await answered(id, 6, "declined");
    await answered(id, 7, "accepted");
    await markDoNotAsk(database.db, String(t[2]), "Asked us to stop", operator);

    const outcome = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id);
    if (outcome.kind !== "made") throw new Error(`expected a round, got ${outcome.kind}`);
    expect(outcome).toMatchObject({ round: 2, rows: 1 });
    // Everyone in the parent is either asked again or listed with why, the unanswered and the payers included.
    expect(await rowsOf(outcome.id)).toEqual([
      `${t[0]} queued`,
      `${t[1]} invalid cooling_down`,
      `${t[2]} invalid do_not_ask`,
      `${t[3]} invalid pending`,
      `${t[3]} invalid not_chosen`,
      `${t[4]} invalid paid`,
      `${t[4]} invalid paid`,
      `${t[5]} invalid not_chosen`,
    ]);
    const child = await getCampaignView(database.db, outcome.id);
    expect(child).toMatchObject({ name: "Estate — round 2", status: "draft", parentId: id, round: 2, counts: { queued: 1, invalid: 7 } });
    // The family: both rounds, and one combined count of who has paid.
    expect(child?.family).toMatchObject({
      rounds: [
        { id, round: 1 },
        { id: outcome.id, round: 2 },
      ],
      paid: 1,
    });

    // One draft round at a time: asking again while round 2 waits is refused; once it is discarded, it may be asked.
    await expect(askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id)).rejects.toBeInstanceOf(RoundDraftExistsError);
    await transitionCampaign(database.db, outcome.id, "cancel", operator.id);
    // With the unanswered included, the one still to answer is asked again (a second open request); the person with
    // an open request was asked twice already, so the round adds one ask of theirs and leaves the other out (3 at most).
    const withOpen = await askAgain(database.db, id, { include: ["declined", "unanswered"], unansweredForHours: 0 }, operator.id);
    if (withOpen.kind !== "made") throw new Error(`expected a round, got ${withOpen.kind}`);
    // The draft says plainly who will hold two open requests: the one still to answer and the one with an open row.
    expect((await getCampaignView(database.db, withOpen.id))?.family?.stillOpen).toBe(2);
    expect(child?.family?.stillOpen).toBe(0);
    expect((await listCampaignRows(database.db, withOpen.id, { page: 1, status: "queued" }, 100)).items.map((r) => `${r.tag} ${r.amount}`)).toEqual([
      `${t[0]} 100.00`,
      `${t[3]} 103.00`,
      `${t[5]} 107.00`,
    ]);
    expect(await rowsOf(withOpen.id)).toContain(`${t[3]} invalid asked_enough`);
  });

  it("leaves out a person asked the most times in the family, and those not unanswered for long enough", async () => {
    const tag = newTag("enough");
    const id = await sentCampaign("Levy", [tag]);
    await answered(id, 1, "declined");
    // Unanswered for at least an hour: the request is newer, so nobody.
    const young = newTag("young");
    const other = await sentCampaign("Fresh", [young]);
    expect(await askAgain(database.db, other, { include: ["unanswered"], unansweredForHours: 1 }, operator.id)).toMatchObject({
      kind: "nothing",
      leftOut: [{ tag: young, reason: "too_recent", message: "Left out: asked less than 1 hours ago, so not yet unanswered" }],
    });

    await saveSettings(database.db, { maxAsksPerTag: 1 });
    const outcome = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id);
    expect(outcome).toMatchObject({ kind: "nothing", leftOut: [{ tag, reason: "asked_enough" }] });
  });

  it("counts only asks that reached the person, and the asks a round adds, against the most a family may ask", async () => {
    await saveSettings(database.db, { maxAsksPerTag: 3 });
    const tag = newTag("twice");
    // One person twice in the file (two amounts), both declined: two asks so far; the round may add one, not two.
    const id = await sentCampaign("Twice", [tag, tag]);
    await answered(id, 1, "declined");
    await answered(id, 2, "declined");
    const outcome = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id);
    if (outcome.kind !== "made") throw new Error(`expected a round, got ${outcome.kind}`);
    expect(await rowsOf(outcome.id)).toEqual([`${tag} queued`, `${tag} invalid asked_enough`]);

    // A send the service refused asked nobody: it does not count.
    const refused = newTag("refusedonce");
    const other = await sentCampaign("Refused", [refused]);
    await database.db.execute(sql`update fund_requests set status = 'failed', error = 'refused' where idempotency_key = ${campaignRowKey(other, 1)}`);
    await saveSettings(database.db, { maxAsksPerTag: 1 });
    const again = await askAgain(database.db, other, { include: ["failed"], unansweredForHours: 0 }, operator.id);
    expect(again).toMatchObject({ kind: "made", rows: 1 });
  });

  it("checks a round's rows again when sent for a cool-down begun and the asks used up since the draft", async () => {
    await saveSettings(database.db, { declineCooldownHours: 72, maxAsksPerTag: 5 });
    const [cooling, enough, fine] = [newTag("coolsince"), newTag("enoughsince"), newTag("finesince")];
    const id = await sentCampaign("Again", [cooling, enough, fine]);
    for (const row of [1, 2, 3]) await answered(id, row, "declined", 100);
    const round = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id);
    if (round.kind !== "made") throw new Error(`expected a round, got ${round.kind}`);
    // While the draft waited: one declined something else an hour ago, and the family may now ask each person once.
    const other = await sentCampaign("Elsewhere", [cooling]);
    await answered(other, 1, "declined", 1);
    await saveSettings(database.db, { declineCooldownHours: 72, maxAsksPerTag: 1 });
    await transitionCampaign(database.db, round.id, "start", operator.id);
    await control.resetStats();
    await sendCampaignRows(deps, 10);
    expect(await control.count(CREATE_CALL)).toBe(0);
    const rows = (await listCampaignRows(database.db, round.id, { page: 1 }, 100)).items.filter((r) => r.status !== "invalid");
    expect(rows.map((r) => `${r.tag} ${r.status} ${r.leftOut}`)).toEqual([
      `${cooling} skipped cooling_down`,
      `${enough} skipped asked_enough`,
      `${fine} skipped asked_enough`,
    ]);
  });

  it("checks a round's row against the policy again when it is sent: one who paid since the draft is left out unsent", async () => {
    await saveSettings(database.db, { maxAsksPerTag: 5 });
    const [payer, other] = [newTag("paidsince"), newTag("stillowes")];
    const id = await sentCampaign("Since", [payer, other, payer]);
    await answered(id, 1, "declined");
    await answered(id, 2, "declined");
    const round = await askAgain(database.db, id, { include: ["declined", "unanswered"], unansweredForHours: 0 }, operator.id);
    if (round.kind !== "made") throw new Error(`expected a round, got ${round.kind}`);
    // While the draft waited, the person paid their open row of the first campaign.
    await answered(id, 3, "accepted", 0);
    await transitionCampaign(database.db, round.id, "start", operator.id);
    await control.resetStats();
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1, more: false });
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect(await rowsOf(round.id)).toEqual([`${payer} skipped paid`, `${other} sent`, `${payer} skipped paid`]);
    const [skipped] = (await listCampaignRows(database.db, round.id, { page: 1, status: "skipped" })).items;
    expect(skipped?.error).toBe("Left out when it was to be sent: already paid in this campaign family");
  });

  it("says when a cool-down ends, leaves out tags the service does not know, and asks the cooling-down when a person overrides it", async () => {
    const [cool, missing] = [newTag("cool"), `missing${newTag("x").slice(0, 20)}`];
    const id = await sentCampaign("Cool", [cool, missing]);
    // Declined 2 hours ago with a 72-hour cool-down: it ends 70 hours from now.
    await answered(id, 1, "declined", 2);
    const [declined] = await database.db
      .select({ decidedAt: fundRequests.decidedAt, status: fundRequests.status })
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, campaignRowKey(id, 1)));
    const [refused] = await database.db
      .select({ status: fundRequests.status, failureKind: fundRequests.failureKind })
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, campaignRowKey(id, 2)));
    expect(refused).toEqual({ status: "failed", failureKind: "not_found" });
    const ends = new Date((declined?.decidedAt?.getTime() ?? 0) + 72 * HOUR);
    const endsText = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZone: "Africa/Lagos",
    }).format(ends);

    const kept = await askAgain(database.db, id, { include: ["declined", "failed"], unansweredForHours: 0 }, operator.id);
    expect(kept).toMatchObject({
      kind: "nothing",
      leftOut: [
        { tag: cool, reason: "cooling_down", message: `Left out: declined recently (cooling down until ${endsText})` },
        { tag: missing, reason: "no_such_tag" },
      ],
    });

    const overridden = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0, overrideCooldown: true }, operator.id);
    if (overridden.kind !== "made") throw new Error(`expected a round, got ${overridden.kind}`);
    expect(await rowsOf(overridden.id)).toEqual([`${cool} queued`, `${missing} invalid no_such_tag`]);
    // The override holds when the row is sent, too: the person is asked.
    await transitionCampaign(database.db, overridden.id, "start", operator.id);
    await control.resetStats();
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1, more: false });
    expect(await control.count(CREATE_CALL)).toBe(1);
  });

  it("makes one draft round when two people ask again at once", async () => {
    const tag = newTag("racer");
    const id = await sentCampaign("Race", [tag]);
    await answered(id, 1, "declined");
    const both = await Promise.allSettled([0, 1].map(() => askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id)));
    expect(both.filter((b) => b.status === "fulfilled")).toHaveLength(1);
    const refused = both.find((b) => b.status === "rejected");
    expect(refused?.status === "rejected" && refused.reason).toBeInstanceOf(RoundDraftExistsError);
  });

  it("refuses a draft and an unknown campaign", async () => {
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${newTag("draft")},10,x\n`));
    if (!parsed.ok) throw new Error(parsed.message);
    const draft = await createCampaign(database.db, "Draft", parsed.rows, operator.id);
    expect(await askAgain(database.db, draft, { include: ["failed"], unansweredForHours: 0 }, operator.id)).toEqual({ kind: "draft" });
    expect(await askAgain(database.db, "00000000-0000-4000-8000-000000000000", { include: ["failed"], unansweredForHours: 0 }, operator.id)).toEqual({
      kind: "not_found",
    });
  });

  it("sends a round across a crash asking each person once", async () => {
    const tags = [newTag("crashchase"), newTag("crashchase")];
    const id = await sentCampaign("Crash chase", tags);
    await answered(id, 1, "declined");
    await answered(id, 2, "declined");
    const round = await askAgain(database.db, id, { include: ["declined"], unansweredForHours: 0 }, operator.id);
    if (round.kind !== "made") throw new Error(`expected a round, got ${round.kind}`);
    await transitionCampaign(database.db, round.id, "start", operator.id);
    await control.resetStats();
    expect(await sendCampaignRows(deps, 1)).toMatchObject({ sent: 1 });
    // The process died after the request was recorded but before the row was marked: the row is queued again.
    await database.db
      .update(campaignRows)
      .set({ status: "queued", fundRequestId: null })
      .where(sql`${campaignRows.campaignId} = ${round.id}::uuid and ${campaignRows.status} = 'sent'`);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2, more: false });
    expect(await control.count(CREATE_CALL)).toBe(2);
    expect(await rowsOf(round.id)).toEqual(tags.map((t) => `${t} sent`));
  });

  it("do not ask holds in a campaign: a marked tag is an invalid row at upload, and a mark made after the upload fails the row unsent", async () => {
    const early = newTag("dnaup");
    const late = newTag("dnalate");
    await markDoNotAsk(database.db, `@${early.toUpperCase()}`, "Said no", operator);
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${early},10,Dues\n${late},20,Dues\n`));
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createCampaign(database.db, "Marked", parsed.rows, operator.id);
    expect(await rowsOf(id)).toEqual([`${early} invalid do_not_ask`, `${late} queued`]);
    const [invalid] = (await listCampaignRows(database.db, id, { page: 1, status: "invalid" })).items;
    expect(invalid?.error).toMatch(/asked not to be asked: marked by Chase Operator on .*\(Said no\)/);
    await markDoNotAsk(database.db, late, "Asked us by e-mail", operator);
    await transitionCampaign(database.db, id, "start", operator.id);
    await control.resetStats();
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    expect(await control.count(CREATE_CALL)).toBe(0);
    expect(await rowsOf(id)).toEqual([`${early} invalid do_not_ask`, `${late} failed`]);
  });

  it("asks the unanswered again at the default hours: the API's 0 takes a request still pending, the form's 24 one pending 24 h or more", async () => {
    await saveSettings(database.db, { maxAsksPerTag: 5 });
    // The API's default (the body names no hours): whoever has not answered yet, however new the request.
    const input = askAgainSchema.parse({ include: ["unanswered"] });
    expect(input.unansweredForHours).toBe(0);
    const fresh = newTag("dfltnow");
    const id = await sentCampaign("Default hours", [fresh]);
    expect(await askAgain(database.db, id, input, operator.id)).toMatchObject({ kind: "made", rows: 1, leftOut: [] });
    // The form's default, 24 hours: a request pending 25 h is unanswered, one pending 23 h not yet.
    const [old, young] = [newTag("dflt25"), newTag("dflt23")];
    const other = await sentCampaign("Form hours", [old, young]);
    for (const [row, hours] of [
      [1, 25],
      [2, 23],
    ] as const)
      await database.db.execute(
        sql`update fund_requests set created_at = now() - make_interval(hours => ${hours}) where idempotency_key = ${campaignRowKey(other, row)}`,
      );
    const outcome = await askAgain(database.db, other, { include: ["unanswered"], unansweredForHours: 24 }, operator.id);
    if (outcome.kind !== "made") throw new Error(`expected a round, got ${outcome.kind}`);
    expect(await rowsOf(outcome.id)).toEqual([`${old} queued`, `${young} invalid too_recent`]);
    expect(outcome.leftOut[0]?.message).toBe("Left out: asked less than 24 hours ago, so not yet unanswered");
  });

  it("checks do not ask before a send's key is replayed: a row whose request was recorded, then marked, is refused, not replayed as sent", async () => {
    const [marked, other] = [newTag("dnareplay"), newTag("dnaother")];
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${marked},10,Dues\n${other},20,Dues\n`));
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createCampaign(database.db, "Replayed", parsed.rows, operator.id);
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 1)).toMatchObject({ sent: 1, more: true });
    // The process died after the first row's request was recorded, before the row was marked sent: it is queued
    // again, and its key's request is on record (a send would replay it without calling the service).
    await database.db
      .update(campaignRows)
      .set({ status: "queued", fundRequestId: null })
      .where(sql`${campaignRows.campaignId} = ${id}::uuid and ${campaignRows.row} = 1`);
    // Meanwhile the person asked not to be asked.
    await markDoNotAsk(database.db, marked, "Asked us to stop", operator);
    await control.resetStats();
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1, more: false });
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect(await rowsOf(id)).toEqual([`${marked} failed`, `${other} sent`]);
    const [refused] = (await listCampaignRows(database.db, id, { page: 1, status: "failed" })).items;
    expect(refused?.error).toMatch(/asked not to be asked: marked by Chase Operator on .*\(Asked us to stop\)/);
  });
});

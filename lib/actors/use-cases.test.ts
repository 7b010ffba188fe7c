import { randomBytes, randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { addStaffAccount, changeStaffAccount, resetStaffTwoStep } from "@/lib/auth/manage-staff";
import { applyCampaignAction } from "@/lib/campaigns/actions";
import { draftCampaign } from "@/lib/campaigns/draft";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import type { Role } from "@/lib/client/auth/roles";
import { queryRows } from "@/lib/db/client";
import { payments, staff } from "@/lib/db/schema";
import { setDoNotAsk } from "@/lib/payers/do-not-ask";
import { HAND_NOT_VERIFIABLE } from "@/lib/payments/verify";
import { reverifyPayment } from "@/lib/payments/reverify";
import { changePlan } from "@/lib/plans/change-plan";
import { createPlan } from "@/lib/plans/repo";
import { runPlanPeriod } from "@/lib/plans/run-period";
import { sendNewRequest } from "@/lib/requests/new-request";
import { changeSettings } from "@/lib/settings/change-settings";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";

import { staffActor, type ApiKeyActor, type StaffActor } from "./actor";

// The use cases the route handlers call (docs/architecture.md "Actors"), over a real database (and the sandbox for a
// request): each authorizes its actor (a viewer is refused with withStaff's 403 and nothing is written) and writes its
// audit row naming that actor: a person added, the settings changed, a request sent, a payment re-verified, a campaign
// drafted and started, a plan's period run.

const IP = "203.0.113.77";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => sb.close());

describe.each(dbTargets())("use cases and their actors on $name", (target) => {
  const database = useTestDatabase(target);
  let admin: StaffActor;
  let operator: StaffActor;
  let viewer: StaffActor;

  /** A person of `role`, as the actor withStaff would make of them. */
  async function person(role: Role, name: string): Promise<StaffActor> {
    const email = `${role}-${randomBytes(4).toString("hex")}@example.test`;
    const [row] = await database.db.insert(staff).values({ email, name, role, passwordHash: "x" }).returning();
    if (!row) throw new Error("staff insert returned nothing");
    return staffActor({ ...row, sessionId: null }, IP);
  }

  beforeAll(async () => {
    admin = await person("admin", "Ada Admin");
    operator = await person("operator", "Ola Operator");
    viewer = await person("viewer", "Vic Viewer");
  });

  type AuditRow = { action: string; actor_id: string | null; actor_email: string | null; ip: string | null; target: string | null; detail: unknown };
  const auditRows = (where: ReturnType<typeof sql>) =>
    queryRows<AuditRow>(database.db, sql`select action, actor_id, actor_email, ip, target, detail from audit_log where ${where} order by id`);
  const auditCount = async () => (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from audit_log`))[0]?.n ?? 0;
  const by = (actor: StaffActor) => ({ actor_id: actor.id, actor_email: actor.email, ip: IP });

  const csv = (text: string) => {
    const parsed = parseCampaignCsv(new TextEncoder().encode(text));
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rows;
  };

  it("refuses a viewer every change with withStaff's 403, and writes nothing", async () => {
    const before = await auditCount();
    const planId = await createPlan(database.db, planFields(), "Africa/Lagos", csv(`tag,amount,description\n${newTag("vplan")},100,\n`), admin.id);
    const attempts: [string, () => Promise<unknown>][] = [
      ["add a person", () => addStaffAccount(database.db, viewer, { email: "x@example.test", name: "X", role: "viewer", password: "long-enough-pw" })],
      ["change a person", () => changeStaffAccount(database.db, viewer, operator.id, { role: "viewer" })],
      ["reset a second step", () => resetStaffTwoStep(database.db, viewer, operator.id)],
      ["change the settings", () => changeSettings(database.db, viewer, { maxAsksPerTag: 9 })],
      [
        "send a request",
        () => sendNewRequest(requestDeps(database.db, sb), viewer, { tag: newTag("v"), amount: "1.00", description: "x", idempotencyKey: newKey("v") }),
      ],
      ["re-verify a payment", () => reverifyPayment(requestDeps(database.db, sb), viewer, randomUUID())],
      ["draft a campaign", () => draftCampaign(database.db, viewer, { name: "No", rows: csv(`tag,amount,description\n${newTag("v")},1,\n`) })],
      ["start a campaign", () => applyCampaignAction(database.db, viewer, randomUUID(), "start")],
      ["run a plan's period", () => runPlanPeriod(database.db, viewer, planId, "2026-11")],
      ["pause a plan", () => changePlan(database.db, viewer, planId, { status: "pause" })],
      ["mark do-not-ask", () => setDoNotAsk(database.db, viewer, newTag("v"), { doNotAsk: true, note: "" })],
    ];
    for (const [what, attempt] of attempts) {
      await expect(attempt(), what).rejects.toMatchObject({
        status: 403,
        code: "forbidden",
        message: "Your role (viewer) may not do this. Ask an admin if you need access.",
      });
    }
    // An operator may not manage staff either; an API key never may, whatever its scopes.
    await expect(resetStaffTwoStep(database.db, operator, admin.id)).rejects.toMatchObject({ status: 403, message: expect.stringContaining("(operator)") });
    const key: ApiKeyActor = { kind: "api_key", id: randomUUID(), name: "books", scopes: ["campaigns:write"], ownerId: admin.id, ip: IP };
    await expect(addStaffAccount(database.db, key, { email: "k@example.test", name: "K", role: "admin", password: "long-enough-pw" })).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining("An API key may not do this"),
    });
    await expect(changePlan(database.db, key, planId, { status: "pause" })).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining("plans:write"),
    });
    expect(await auditCount()).toBe(before);
    expect(await queryRows(database.db, sql`select 1 from staff where email in ('x@example.test', 'k@example.test')`)).toEqual([]);
  });

  it("an admin adds a person: one staff.created row by the admin, none for an e-mail already taken", async () => {
    const email = `new-${randomBytes(4).toString("hex")}@example.test`;
    const made = await addStaffAccount(database.db, admin, { email, name: "New Person", role: "operator", password: "long-enough-pw" });
    expect(made).toMatchObject({ kind: "created", staff: { email, role: "operator", mustChangePassword: true } });
    expect(await addStaffAccount(database.db, admin, { email, name: "Again", role: "viewer", password: "long-enough-pw" })).toEqual({ kind: "email_taken" });
    expect(await auditRows(sql`target = ${email}`)).toEqual([{ action: "staff.created", ...by(admin), target: email, detail: { role: "operator" } }]);
    // Their admin cannot be taken from themselves.
    expect(await changeStaffAccount(database.db, admin, admin.id, { role: "operator" })).toEqual({ kind: "own_account" });
  });

  it("an admin changes the chasing policy: one settings.chasing_changed row; requiring two-step sign-in without their own is refused", async () => {
    expect(await changeSettings(database.db, admin, { require2fa: true })).toEqual({ kind: "own_two_step_off" });
    const outcome = await changeSettings(database.db, admin, { declineCooldownHours: 48, maxAsksPerTag: 4 });
    expect(outcome).toMatchObject({ kind: "saved", require2faChanged: false, chasingChanged: true, after: { declineCooldownHours: 48, maxAsksPerTag: 4 } });
    const rows = await auditRows(sql`action like 'settings.%'`);
    expect(rows).toEqual([
      {
        action: "settings.chasing_changed",
        ...by(admin),
        target: null,
        detail: { declineCooldownHours: 48, maxAsksPerTag: 4, before: { declineCooldownHours: 72, maxAsksPerTag: 3 } },
      },
    ]);
  });

  it("an admin renames the business payers see: one settings.business_name_changed row, none when it is the same", async () => {
    const outcome = await changeSettings(database.db, admin, { businessName: "Ikoyi Estate Dues" });
    expect(outcome).toMatchObject({ kind: "saved", nameChanged: true, chasingChanged: false, after: { businessName: "Ikoyi Estate Dues" } });
    expect(await changeSettings(database.db, admin, { businessName: "Ikoyi Estate Dues" })).toMatchObject({ nameChanged: false });
    expect(await auditRows(sql`action = 'settings.business_name_changed'`)).toEqual([
      { action: "settings.business_name_changed", ...by(admin), target: null, detail: { from: "Fundboard", to: "Ikoyi Estate Dues" } },
    ]);
  });

  it("an operator sends one request: a request.created row with its tag and amount; a do-not-ask tag is refused before any send", async () => {
    const deps = requestDeps(database.db, sb);
    const tag = newTag("single");
    const outcome = await sendNewRequest(deps, operator, { tag, amount: "250.00", description: "Dues", idempotencyKey: newKey("single") });
    if (outcome.kind !== "created") throw new Error(`sent: ${outcome.kind}`);
    expect(outcome.request.createdBy).toEqual({ id: operator.id, name: "Ola Operator" });
    const requestId = outcome.request.requestId ?? "";
    expect(await auditRows(sql`target = ${requestId}`)).toEqual([
      { action: "request.created", ...by(operator), target: requestId, detail: { tag, amount: "250.00" } },
    ]);

    const marked = newTag("marked");
    await setDoNotAsk(database.db, operator, marked, { doNotAsk: true, note: "Asked us to stop" });
    const refused = await sendNewRequest(deps, operator, { tag: marked, amount: "1.00", description: "x", idempotencyKey: newKey("marked") });
    expect(refused).toMatchObject({ kind: "do_not_ask", refusal: expect.stringContaining("asked not to be asked") });
    expect(await queryRows(database.db, sql`select 1 from fund_requests where tag = ${marked}`)).toEqual([]);
  });

  it("an operator re-verifies a payment: a payment.reverify row with the result; an unknown payment writes none", async () => {
    const uuid = randomUUID();
    await database.db.insert(payments).values({
      uuid,
      type: "peer_transfer",
      amount: "500.00",
      actualAmount: "500.00",
      settledAmount: "495.00",
      fees: "5.00",
      description: "Dues",
      customerName: "Hand Payer",
      customerTag: newTag("hand"),
      source: "hand",
      recordedByName: "Ola Operator",
    });
    const outcome = await reverifyPayment(requestDeps(database.db, sb), operator, uuid.toUpperCase());
    expect(outcome).toMatchObject({ kind: "failed", reason: HAND_NOT_VERIFIABLE, payment: { uuid } });
    expect(await auditRows(sql`action = 'payment.reverify'`)).toEqual([
      { action: "payment.reverify", ...by(operator), target: uuid, detail: { result: "failed" } },
    ]);
    expect(await reverifyPayment(requestDeps(database.db, sb), operator, randomUUID())).toEqual({ kind: "not_found" });
    expect(await auditRows(sql`action = 'payment.reverify'`)).toHaveLength(1);
  });

  it("an operator drafts and starts a campaign: campaign.uploaded with its counts, campaign.started naming the sender", async () => {
    const rows = csv(`tag,amount,description\n${newTag("camp")},100,Dues\nnot a tag!,100,Dues\n`);
    const drafted = await draftCampaign(database.db, operator, { name: "Audited campaign", rows });
    if (drafted.kind !== "drafted") throw new Error(drafted.kind);
    expect(drafted.campaign).toMatchObject({ id: drafted.id, status: "draft" });
    const started = await applyCampaignAction(database.db, operator, drafted.id, "start");
    expect(started).toMatchObject({ ok: true, campaign: { status: "sending" } });
    expect(await applyCampaignAction(database.db, operator, drafted.id, "start")).toEqual({ ok: false, current: "sending" });
    expect(await auditRows(sql`target = ${drafted.id}`)).toEqual([
      { action: "campaign.uploaded", ...by(operator), target: drafted.id, detail: { name: "Audited campaign", rows: 2, invalid: 1 } },
      { action: "campaign.started", ...by(operator), target: drafted.id, detail: { senderId: operator.id, previousSenderId: operator.id } },
    ]);
    await applyCampaignAction(database.db, operator, drafted.id, "cancel");
  });

  it("an operator runs a plan's current period: a plan.period_run row with the period and its campaign; a second run is refused", async () => {
    const rows = csv(`tag,amount,description\n${newTag("run")},100,\n`);
    const planId = await createPlan(database.db, planFields({ day: 28, startsOn: "2026-08-01" }), "Africa/Lagos", rows, admin.id);
    // 5 November in Lagos: November is the current period, its day (the 28th) not yet come.
    const now = new Date("2026-11-05T10:00:00Z");
    const made = await runPlanPeriod(database.db, operator, planId, "2026-11", now);
    if (made.kind !== "made") throw new Error(made.kind);
    expect(await runPlanPeriod(database.db, operator, planId, "2026-11", now)).toMatchObject({ kind: "refused", reason: "made" });
    expect(await runPlanPeriod(database.db, operator, planId, "2026-12", now)).toMatchObject({ kind: "refused", reason: "future" });
    expect(await runPlanPeriod(database.db, operator, randomUUID(), "2026-11", now)).toEqual({ kind: "not_found" });
    expect(await auditRows(sql`action = 'plan.period_run'`)).toEqual([
      { action: "plan.period_run", ...by(operator), target: planId, detail: { period: "2026-11", campaignId: made.campaignId } },
    ]);
    const [campaign] = await queryRows<{ sender_id: string }>(database.db, sql`select sender_id from campaigns where id = ${made.campaignId}::uuid`);
    expect(campaign?.sender_id).toBe(operator.id);
  });
});

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { isDiscarded } from "@/lib/client/campaigns/view";
import { newRequestSchema } from "@/lib/client/requests/schemas";
import { campaignRows, fundRequests } from "@/lib/db/schema";
import { createFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { statusChecksHold } from "@/lib/requests/reconciler";
import { NO_HOLD, spendServiceCall } from "@/lib/service/budget";
import { budgetGate } from "@/lib/service/budget-gate";
import { ServiceError } from "@/lib/service/errors";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { CREATE_CALL, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";

import { parseCampaignCsv } from "./parse";
import { getCampaignView, listCampaignRows } from "./queries";
import { createCampaign, transitionCampaign } from "./repo";
import { campaignRowKey, sendCampaignRows } from "./send";

// Campaign sending against the sandbox and a real database: each row one request, whatever crashes,
// retries and budget refusals happen between the call and the bookkeeping.

let sb: Sandbox;
let control: SandboxControl;
beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

const file = (lines: string[]) => {
  const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${lines.join("\n")}\n`));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rows;
};

describe.each(dbTargets())("campaign sending on $name", (target) => {
  const database = useTestDatabase(target);
  let deps: RequestDeps;
  let operator: { id: string; name: string };
  beforeAll(async () => {
    deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
    operator = await insertStaff(database.db, "Camp Operator");
  });
  beforeEach(async () => {
    await control.reset();
    // Each test sends its own campaign alone: one another test left sending (in any order) is stopped first.
    await database.db.execute(sql`update campaigns set status = 'cancelled' where status in ('sending', 'paused')`);
    await database.db.execute(sql`update campaign_rows set status = 'skipped' where status in ('queued', 'claimed')`);
  });

  it("a discarded draft asked nobody: nothing asked, nothing outstanding, every row skipped", async () => {
    const id = await createCampaign(database.db, "Discarded", file([`${newTag("camp")},100,Dues`, `${newTag("camp")},70,Dues`]), operator.id);
    expect(await getCampaignView(database.db, id, 60)).toMatchObject({ amounts: { asked: "170.00" } });
    expect(await transitionCampaign(database.db, id, "cancel", operator.id)).toMatchObject({ ok: true });
    const view = await getCampaignView(database.db, id, 60);
    expect(view).toMatchObject({ status: "cancelled", startedAt: null, counts: { skipped: 2 }, amounts: { asked: "0.00", outstanding: "0.00" } });
    expect(view && isDiscarded(view)).toBe(true);
  });

  it("drafts with invalid rows and warnings, sends every queued row once, and finishes", async () => {
    const a = newTag("camp");
    const id = await createCampaign(
      database.db,
      "Dues",
      file([`${a},100,Dues`, `${a},100,Dues again`, "x,abc,", `${newTag("camp")},250.50,Dues`]),
      operator.id,
    );
    let view = await getCampaignView(database.db, id, 60);
    expect(view).toMatchObject({ status: "draft", counts: { total: 4, invalid: 1, queued: 3 }, amounts: { asked: "450.50" }, warnings: 2 });
    expect(view?.etaSeconds).toBe(3);
    // Nothing is sent from a draft.
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    expect(await control.count(CREATE_CALL)).toBe(0);

    expect(await transitionCampaign(database.db, id, "start", operator.id)).toMatchObject({ ok: true });
    expect(await transitionCampaign(database.db, id, "start", operator.id)).toEqual({ ok: false, current: "sending" });
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 3, more: false });
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    view = await getCampaignView(database.db, id, 60);
    expect(view).toMatchObject({
      status: "done",
      counts: { queued: 0, sent: 3, invalid: 1 },
      // Everyone asked is still to answer: the whole asked amount is outstanding.
      amounts: { asked: "450.50", accepted: "0.00", collected: "0.00", outstanding: "450.50" },
    });
    expect(await control.count(CREATE_CALL)).toBe(3);
    const invalid = await listCampaignRows(database.db, id, { status: "invalid", page: 1 });
    expect(invalid.items[0]?.error).toMatch(/tag: .*amount: .*description: /);
  });

  it("a row the service refuses ends failed with the service's reason, and the rest of the campaign is sent", async () => {
    // The sandbox knows no user whose tag starts with "missing": it refuses that request.
    const missing = newTag("missing");
    const id = await createCampaign(
      database.db,
      "Refused row",
      file([`${newTag("camp")},10,One`, `${missing},20,Two`, `${newTag("camp")},30,Three`]),
      operator.id,
    );
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ more: false });
    expect(await control.count(CREATE_CALL)).toBe(3);
    expect(await getCampaignView(database.db, id, 60)).toMatchObject({
      status: "done",
      counts: { total: 3, queued: 0, sent: 2, failed: 1 },
      // The refused row was asked of nobody: what is outstanding is the two sent rows.
      amounts: { outstanding: "40.00" },
    });
    const failed = await listCampaignRows(database.db, id, { status: "failed", page: 1 });
    expect(failed.items.map((r) => [r.row, r.tag, r.status, r.requestId])).toEqual([[2, missing, "failed", null]]);
    expect(failed.items[0]?.error).toContain(`No user found with tag ${missing}`);
    const sent = await listCampaignRows(database.db, id, { status: "sent", page: 1 });
    expect(sent.items.map((r) => r.row).sort()).toEqual([1, 3]);
    for (const r of sent.items) expect(r.requestId).toMatch(/^\d+$/);
  });

  it("a queued row the form would refuse ends failed with the form's reason, and the rest of the campaign is sent", async () => {
    const id = await createCampaign(database.db, "Bad row", file([`${newTag("camp")},10,One`, `${newTag("camp")},20,Two`]), operator.id);
    // Written past the upload's checks (as a plan member once could be): a description the form refuses.
    await database.db
      .update(campaignRows)
      .set({ description: "Dues\tfor November" })
      .where(sql`${campaignRows.campaignId} = ${id} and ${campaignRows.row} = 1`);
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ more: false });
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect(await getCampaignView(database.db, id, 60)).toMatchObject({ status: "done", counts: { total: 2, sent: 1, failed: 1 } });
    const failed = await listCampaignRows(database.db, id, { status: "failed", page: 1 });
    expect(failed.items.map((r) => [r.row, r.error])).toEqual([[1, "Not sent: Remove line breaks and control characters"]]);
  });

  it("flags a row whose tag already has a pending request for the same amount (a warning: still sent)", async () => {
    const [asked, other] = [newTag("pend"), newTag("pend")];
    const first = await createFundRequest(
      deps,
      newRequestSchema.parse({ tag: asked, amount: "150.00", description: "Dues", idempotencyKey: newKey("pending") }),
      operator,
    );
    expect(first).toMatchObject({ kind: "created", request: { status: "pending" } });
    const id = await createCampaign(
      database.db,
      "Pending again",
      file([`${asked},150,Dues again`, `${asked.toUpperCase()},150,Same tag in capitals`, `${asked},75,Another amount`, `${other},150,Someone else`]),
      operator.id,
    );
    const rows = (await listCampaignRows(database.db, id, { page: 1 })).items;
    const WARNING = "This tag already has a pending request for this amount.";
    expect(rows.map((r) => [r.row, r.status, r.warning?.includes(WARNING) ?? false])).toEqual([
      [1, "queued", true],
      [2, "queued", true],
      [3, "queued", false],
      [4, "queued", false],
    ]);
    expect(await getCampaignView(database.db, id, 60)).toMatchObject({ counts: { queued: 4 } });
    expect((await listCampaignRows(database.db, id, { status: "warning", page: 1 })).items.filter((r) => r.warning?.includes(WARNING))).toHaveLength(2);
  });

  it("sends a row once across a crash between the service's answer and the row's bookkeeping", async () => {
    const id = await createCampaign(database.db, "Crash", file([`${newTag("crash")},10,One`, `${newTag("crash")},20,Two`]), operator.id);
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 1)).toMatchObject({ sent: 1 });
    // The process died after the request was recorded but before the row was marked: the row is queued again.
    await database.db.update(campaignRows).set({ status: "queued", fundRequestId: null }).where(eq(campaignRows.campaignId, id));
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2 });
    expect(await control.count(CREATE_CALL)).toBe(2);
    for (const row of [1, 2])
      expect(
        await database.db
          .select()
          .from(fundRequests)
          .where(eq(fundRequests.idempotencyKey, campaignRowKey(id, row))),
      ).toHaveLength(1);
    expect((await getCampaignView(database.db, id, 60))?.counts.sent).toBe(2);
  });

  it("stops at once when paused, skips the rest when cancelled, and waits when the budget has no room", async () => {
    const id = await createCampaign(database.db, "Paced", file([1, 2, 3, 4].map((i) => `${newTag("pace")},${i},Row ${i}`)), operator.id);
    await transitionCampaign(database.db, id, "start", operator.id);
    let calls = 0;
    const limited: RequestDeps = {
      ...deps,
      service: requestDeps(database.db, sb, {
        service: {
          getRetries: 0,
          beforeApiCall: async (operation) => {
            calls += 1;
            if (calls > 1) throw new ServiceError({ kind: "rate_limited", operation, retryAfterMs: 4_000, budgetRefused: true });
          },
        },
      }).service,
    };
    expect(await sendCampaignRows(limited, 10)).toEqual({ sent: 1, more: true, waitMs: 4_000 });
    // The refused row left nothing behind: it is queued, with no request recorded under its key.
    expect(
      await database.db
        .select()
        .from(fundRequests)
        .where(eq(fundRequests.idempotencyKey, campaignRowKey(id, 2))),
    ).toHaveLength(0);
    expect((await getCampaignView(database.db, id, 60))?.counts).toMatchObject({ sent: 1, queued: 3 });

    await transitionCampaign(database.db, id, "pause", operator.id);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
    await transitionCampaign(database.db, id, "resume", operator.id);
    expect(await sendCampaignRows(deps, 1)).toMatchObject({ sent: 1 });
    await transitionCampaign(database.db, id, "cancel", operator.id);
    expect((await getCampaignView(database.db, id, 60))?.counts).toMatchObject({ sent: 2, queued: 0, skipped: 2 });
    expect(await transitionCampaign(database.db, id, "resume", operator.id)).toEqual({ ok: false, current: "cancelled" });
  });

  it("leaves the status checks its own requests are owed their room: sends stop short of the slice, the checks fill it", async () => {
    const { db } = database;
    // Only this campaign's requests are pending, and the budget is empty: limit 30, so background may take 7
    // calls in any 10 s and the status checks' pace is 10 a minute (2 in a 10 s slice).
    await db.execute(sql`update fund_requests set status = 'declined' where status = 'pending'`);
    await db.execute(sql`delete from service_calls`);
    const id = await createCampaign(db, "Ordered", file([1, 2, 3, 4, 5, 6, 7, 8].map((i) => `${newTag("order")},${i},Row ${i}`)), operator.id);
    await transitionCampaign(db, id, "start", operator.id);
    const sending: RequestDeps = {
      ...deps,
      service: requestDeps(db, sb, {
        service: {
          getRetries: 0,
          beforeApiCall: budgetGate(
            async () => db,
            () => "background",
            30,
            (operation) => (operation === "create" ? statusChecksHold(db, 30) : Promise.resolve(NO_HOLD)),
          ),
        },
      }).service,
    };
    // Each request sent is pending and never checked: from the second on, two slots are held for checks.
    const pass = await sendCampaignRows(sending, 10);
    expect(pass).toMatchObject({ sent: 5, more: true });
    expect(pass.waitMs).toBeLessThanOrEqual(10_000);
    // The reconciler's checks (background, no hold) find the two slots the sends left.
    expect(await spendServiceCall(db, "background", 30)).toEqual({ ok: true });
    expect(await spendServiceCall(db, "background", 30)).toEqual({ ok: true });
    expect((await spendServiceCall(db, "background", 30)).ok).toBe(false);
  });
});

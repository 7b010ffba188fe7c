import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { auditLog, campaignRows, campaigns, fundRequests, staff } from "@/lib/db/schema";
import { createFundRequest, createKeyedFundRequest } from "@/lib/requests/create";
import type { RequestDeps } from "@/lib/requests/deps";
import { clientKey } from "@/lib/requests/keys";
import { ServiceError } from "@/lib/service/errors";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { CREATE_CALL, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";

import { CLAIM_STALE_MS } from "./claims";
import { parseCampaignCsv } from "./parse";
import { getCampaignView, listCampaignRows } from "./queries";
import { createCampaign, DraftLimitError, MAX_DRAFTS_PER_PERSON, transitionCampaign } from "./repo";
import { campaignRowKey, sendCampaignRows } from "./send";

// Issue 19's campaign findings against the sandbox and a real database: rows claimed before their call,
// client keys in their own namespace, the draft cap under concurrent uploads, and a sender who can no
// longer send pausing the campaign.

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

describe.each(dbTargets())("campaign review findings on $name", (target) => {
  const database = useTestDatabase(target);
  let deps: RequestDeps;
  let operator: { id: string; name: string };
  beforeAll(async () => {
    deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
  });
  beforeEach(async () => {
    await control.reset();
    // The send job takes the oldest sending campaign first: each test's campaigns are the only ones left.
    await database.db
      .update(campaigns)
      .set({ status: "cancelled" })
      .where(inArray(campaigns.status, ["sending", "paused"]));
    operator = await insertStaff(database.db, "Review Operator");
  });

  /** Deps whose every service call first runs `hook` (what a person does while the call is under way). */
  const during = (hook: () => Promise<void>): RequestDeps => ({
    ...deps,
    service: requestDeps(database.db, sb, { service: { getRetries: 0, beforeApiCall: hook } }).service,
  });
  const rowsOf = async (id: string) => (await listCampaignRows(database.db, id, { page: 1 })).items;
  const started = async (lines: string[], by = operator) => {
    const id = await createCampaign(database.db, "Review", file(lines), by.id);
    await transitionCampaign(database.db, id, "start", by.id);
    return id;
  };

  describe("a row is claimed before its call (item 7)", () => {
    it("sends a row cancelled during its call with its request, and skips only the rows not yet claimed", async () => {
      const id = await started([`${newTag("cl")},10,One`, `${newTag("cl")},20,Two`, `${newTag("cl")},30,Three`]);
      let cancelled = false;
      const cancelDuringCall = during(async () => {
        if (cancelled) return;
        cancelled = true;
        expect(await transitionCampaign(database.db, id, "cancel", operator.id)).toMatchObject({ ok: true });
      });
      expect(await sendCampaignRows(cancelDuringCall, 10)).toMatchObject({ sent: 1, more: false });
      const rows = await rowsOf(id);
      expect(rows[0]).toMatchObject({ row: 1, status: "sent" });
      expect(rows[0]?.requestId).toMatch(/\S/);
      expect(rows.slice(1).map((r) => r.status)).toEqual(["skipped", "skipped"]);
      expect(await control.count(CREATE_CALL)).toBe(1);
      expect((await getCampaignView(database.db, id, 60))?.counts).toMatchObject({ sent: 1, skipped: 2, queued: 0 });
    });

    it("releases a claim the budget refused: skipped when the campaign was cancelled meanwhile, never left queued or claimed", async () => {
      const id = await started([`${newTag("rel")},10,One`, `${newTag("rel")},20,Two`]);
      const refuseAfterCancel = during(async () => {
        await transitionCampaign(database.db, id, "cancel", operator.id);
        throw new ServiceError({ kind: "rate_limited", operation: "create", retryAfterMs: 1_000, budgetRefused: true });
      });
      expect(await sendCampaignRows(refuseAfterCancel, 10)).toMatchObject({ sent: 0, more: true });
      expect((await rowsOf(id)).map((r) => r.status)).toEqual(["skipped", "skipped"]);
      const raw = await database.db.select({ status: campaignRows.status }).from(campaignRows).where(eq(campaignRows.campaignId, id));
      expect(raw.map((r) => r.status).sort()).toEqual(["skipped", "skipped"]);
    });

    it("settles a claim left by a dead process: sent with the request recorded under its key, else released", async () => {
      const id = await started([`${newTag("st")},10,One`, `${newTag("st")},20,Two`, `${newTag("st")},30,Three`]);
      const [one, two] = await database.db.select().from(campaignRows).where(eq(campaignRows.campaignId, id)).orderBy(campaignRows.row);
      if (!one || !two) throw new Error("rows missing");
      // Row 1's process died after the service answered; row 2's during its call; row 3's before recording anything.
      const first = await createKeyedFundRequest(deps, { tag: one.tag, amount: "10.00", description: "One" }, campaignRowKey(id, 1), operator);
      expect(first.kind).toBe("created");
      await database.db.insert(fundRequests).values({
        reference: "fb_stale_two",
        idempotencyKey: campaignRowKey(id, 2),
        tag: two.tag,
        amount: "20.00",
        description: "Two",
        status: "sending",
        createdBy: operator.id,
      });
      const fresh = new Date();
      await database.db.update(campaignRows).set({ status: "claimed", claimedAt: fresh }).where(eq(campaignRows.campaignId, id));
      await transitionCampaign(database.db, id, "cancel", operator.id);
      // Claims younger than CLAIM_STALE_MS may still be under way: left alone, and the job looks again.
      expect(await sendCampaignRows(deps, 10)).toEqual({ sent: 0, more: true, waitMs: 5_000 });
      expect((await rowsOf(id)).map((r) => r.status)).toEqual(["queued", "queued", "queued"]);

      const old = new Date(Date.now() - CLAIM_STALE_MS - 1_000);
      await database.db.update(campaignRows).set({ claimedAt: old }).where(eq(campaignRows.campaignId, id));
      expect(await sendCampaignRows(deps, 10)).toEqual({ sent: 0, more: false, waitMs: 0 });
      const rows = await rowsOf(id);
      expect(rows[0]).toMatchObject({ status: "sent", requestId: first.request.requestId });
      // Linked to its request; it follows that request when the requests sweep settles it.
      expect(rows[1]).toMatchObject({ status: "sent", requestId: null });
      const [linked] = await database.db.select({ fundRequestId: campaignRows.fundRequestId }).from(campaignRows).where(eq(campaignRows.id, two.id));
      expect(linked?.fundRequestId).toMatch(/-/);
      expect(rows[2]?.status).toBe("skipped");
      expect(await control.count(CREATE_CALL)).toBe(1);
    });
  });

  describe("client keys and the dashboard's keys are separate namespaces (item 6)", () => {
    it("a client key equal to a campaign row's key neither fails the row nor lends it the client's request", async () => {
      const [a, b] = [newTag("ns"), newTag("ns")];
      const id = await createCampaign(database.db, "Keys", file([`${a},10,One`, `${b},20,Two`]), operator.id);
      // Before Start, a client takes both rows' keys: row 1's with other fields, row 2's with the same.
      const clientOne = await createFundRequest(
        deps,
        { tag: newTag("other"), amount: "5.00", description: "Mine", idempotencyKey: campaignRowKey(id, 1) },
        operator,
      );
      const clientTwo = await createFundRequest(deps, { tag: b, amount: "20.00", description: "Two", idempotencyKey: campaignRowKey(id, 2) }, operator);
      expect([clientOne.kind, clientTwo.kind]).toEqual(["created", "created"]);
      await transitionCampaign(database.db, id, "start", operator.id);
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2, more: false });
      const rows = await rowsOf(id);
      expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
      expect(rows[0]?.requestId).not.toBe(clientOne.request.requestId);
      expect(rows[1]?.requestId).not.toBe(clientTwo.request.requestId);
      expect(await control.count(CREATE_CALL)).toBe(4);
      // The client's repeat still finds its own record.
      const again = await createFundRequest(deps, { tag: b, amount: "20.00", description: "Two", idempotencyKey: campaignRowKey(id, 2) }, operator);
      expect(again).toMatchObject({ kind: "replayed", request: { requestId: clientTwo.request.requestId } });
      const stored = await database.db.select({ key: fundRequests.idempotencyKey }).from(fundRequests).where(eq(fundRequests.tag, b));
      expect(stored.map((s) => s.key).sort()).toEqual([campaignRowKey(id, 2), clientKey(campaignRowKey(id, 2))].sort());
    });
  });

  describe("drafts per person are capped (item 2)", () => {
    it(`refuses a draft past ${MAX_DRAFTS_PER_PERSON} per person, also when the uploads race, and counts only drafts`, async () => {
      const rows = file([`${newTag("dr")},10,One`]);
      for (let i = 0; i < MAX_DRAFTS_PER_PERSON - 3; i++) await createCampaign(database.db, `Draft ${i}`, rows, operator.id);
      const racing = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createCampaign(database.db, `Race ${i}`, rows, operator.id)));
      expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      const refused = racing.filter((r) => r.status === "rejected");
      expect(refused).toHaveLength(5);
      for (const r of refused) expect(r.reason).toBeInstanceOf(DraftLimitError);
      const drafts = await database.db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.createdBy, operator.id), eq(campaigns.status, "draft")));
      expect(drafts).toHaveLength(MAX_DRAFTS_PER_PERSON);
      // Someone else is not held back; a discarded or started draft frees a place.
      const other = await insertStaff(database.db, "Other Uploader");
      await expect(createCampaign(database.db, "Theirs", rows, other.id)).resolves.toMatch(/-/);
      await transitionCampaign(database.db, drafts[0]?.id ?? "", "cancel", operator.id);
      await transitionCampaign(database.db, drafts[1]?.id ?? "", "start", operator.id);
      await expect(createCampaign(database.db, "Again", rows, operator.id)).resolves.toMatch(/-/);
      await expect(createCampaign(database.db, "Again", rows, operator.id)).resolves.toMatch(/-/);
      await expect(createCampaign(database.db, "Too many", rows, operator.id)).rejects.toBeInstanceOf(DraftLimitError);
    });
  });

  describe("a sender who can no longer send pauses the campaign (item 10)", () => {
    it("pauses before the next row when the sender is disabled, with the reason audited, and sends on under whoever resumes", async () => {
      const admin = await insertStaff(database.db, "Review Admin");
      await database.db.update(staff).set({ role: "admin" }).where(eq(staff.id, admin.id));
      const id = await started([1, 2, 3].map((i) => `${newTag("snd")},${i},Row ${i}`));
      let calls = 0;
      const disableAfterFirst = during(async () => {
        calls += 1;
        if (calls === 1) await database.db.update(staff).set({ disabled: true }).where(eq(staff.id, operator.id));
      });
      expect(await sendCampaignRows(disableAfterFirst, 10)).toMatchObject({ sent: 1, more: false });
      expect(await control.count(CREATE_CALL)).toBe(1);
      const paused = await getCampaignView(database.db, id, 60);
      expect(paused).toMatchObject({ status: "paused", sentBy: "Review Operator", counts: { sent: 1, queued: 2 } });
      expect(paused?.pausedReason).toMatch(/Review Operator, who was sending it, was disabled/);
      const audits = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.target, id), eq(auditLog.action, "campaign.paused")));
      expect(audits).toHaveLength(1);
      expect(audits[0]?.detail).toMatchObject({ automatic: true, reason: "sender_disabled", senderId: operator.id });

      expect(await transitionCampaign(database.db, id, "resume", admin.id)).toEqual({ ok: true, previousSender: operator.id });
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 2, more: false });
      const done = await getCampaignView(database.db, id, 60);
      expect(done).toMatchObject({ status: "done", sentBy: "Review Admin", pausedReason: null });
      const senders = await database.db
        .select({ createdBy: fundRequests.createdBy })
        .from(campaignRows)
        .innerJoin(fundRequests, eq(fundRequests.id, campaignRows.fundRequestId))
        .where(eq(campaignRows.campaignId, id))
        .orderBy(campaignRows.row);
      expect(senders.map((s) => s.createdBy)).toEqual([operator.id, admin.id, admin.id]);
    });

    it("pauses a demoted sender's campaign without sending, and a start makes the starter its sender", async () => {
      const id = await started([`${newTag("dem")},10,One`]);
      await database.db.update(staff).set({ role: "viewer" }).where(eq(staff.id, operator.id));
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 0, more: false });
      expect(await control.count(CREATE_CALL)).toBe(0);
      const view = await getCampaignView(database.db, id, 60);
      expect(view?.status).toBe("paused");
      expect(view?.pausedReason).toMatch(/is now a viewer and cannot send/);

      const uploader = await insertStaff(database.db, "Uploader");
      const starter = await insertStaff(database.db, "Starter");
      const other = await createCampaign(database.db, "Started by another", file([`${newTag("dem")},10,One`]), uploader.id);
      await transitionCampaign(database.db, other, "start", starter.id);
      await database.db.update(staff).set({ disabled: true }).where(eq(staff.id, uploader.id));
      expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 1 });
      expect(await getCampaignView(database.db, other, 60)).toMatchObject({ status: "done", createdBy: "Uploader", sentBy: "Starter" });
    });
  });
});

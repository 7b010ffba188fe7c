import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { staffActor, type StaffActor } from "@/lib/actors/actor";
import { askAgainAudited } from "@/lib/campaigns/ask-again";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import type { PlanPatch } from "@/lib/client/plans/schemas";
import { queryRows } from "@/lib/db/client";
import { reopenExceptionAudited } from "@/lib/exceptions/resolve";
import { setDoNotAsk } from "@/lib/payers/do-not-ask";
import { changePlan } from "@/lib/plans/change-plan";
import { createPlan } from "@/lib/plans/repo";
import { clientKey } from "@/lib/requests/keys";
import { insertSending, markPending } from "@/lib/requests/status";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { planFields } from "@/tests/support/plan-fields";
import { insertStaff, newKey, newTag } from "@/tests/support/request-deps";

// The audit rows of a person's actions (docs/architecture.md "The audit log"): a plan paused, resumed, ended, its members or
// schedule changed; a campaign asked again; a payer marked and cleared do-not-ask; an exception reopened. Each is the
// use case every front door calls, as one person, and the row is read back: the action, the actor, the target and
// the detail; a refusal writes none.

const IP = "203.0.113.44";

describe.each(dbTargets())("the audit rows of a person's actions on $name", (target) => {
  const database = useTestDatabase(target);
  let person: StaffActor;
  beforeAll(async () => {
    const row = await insertStaff(database.db, "Ada Auditor");
    const [email] = await queryRows<{ email: string }>(database.db, sql`select email from staff where id = ${row.id}::uuid`);
    person = staffActor({ id: row.id, name: row.name, email: email?.email ?? "", role: "operator" }, IP);
  });

  const auditOf = (targetId: string) =>
    queryRows<{ action: string; actor_id: string | null; actor_email: string | null; detail: Record<string, unknown> | null }>(
      database.db,
      sql`select action, actor_id, actor_email, detail from audit_log where target = ${targetId} order by id`,
    );

  const eventsOf = (field: string, value: string) =>
    queryRows<{ type: string; data: Record<string, unknown> }>(database.db, sql`select type, data from events where data->>${field} = ${value} order by id`);

  /** A request to `tag` the service holds as pending (a payer the dashboard knows); its row id. */
  async function asked(tag: string): Promise<string> {
    const row = await insertSending(database.db, {
      reference: `fb_${newKey("aud")}`,
      idempotencyKey: clientKey(newKey("aud")),
      tag,
      amount: "100.00",
      description: "Dues",
      createdBy: null,
    });
    if (!row) throw new Error("insert refused");
    await markPending(database.db, row.id, String(Math.floor(Math.random() * 1e10)));
    return row.id;
  }

  it("a plan paused, resumed, its members and schedule changed, and ended: one row each, by the person, with what changed", async () => {
    const [stay, go] = [newTag("audplan"), newTag("audplan")];
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${stay},100,\n${go},100,\n`), { describe: (own) => own || "dues" });
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createPlan(database.db, planFields({ name: "Audited", descriptionTemplate: "{period} dues" }), "Africa/Lagos", parsed.rows, person.id);
    const patch = async (body: PlanPatch) => (await changePlan(database.db, person, id, body, new Date("2026-06-10T10:00:00Z"))).kind;
    expect(await patch({ status: "pause" })).toBe("changed");
    expect(await patch({ status: "resume" })).toBe("changed");
    expect(await patch({ members: { add: [], remove: [go], change: [{ tag: stay, amount: "150.00" }] } })).toBe("changed");
    expect(await patch({ schedule: { frequency: "monthly", day: 5, sendAt: "10:00", startsOn: "2026-01-01", endsOn: null } })).toBe("changed");
    expect(await patch({ status: "end" })).toBe("changed");
    // Refused (already ended): no row.
    expect(await patch({ status: "pause" })).toBe("refused");
    const rows = await auditOf(id);
    expect(rows.map((r) => r.action)).toEqual(["plan.paused", "plan.resumed", "plan.members_changed", "plan.schedule_changed", "plan.ended"]);
    for (const r of rows) expect([r.actor_id, r.actor_email]).toEqual([person.id, person.email]);
    expect(rows[2]?.detail).toMatchObject({ added: 0, removed: 1, changed: 1 });
    expect(rows[3]?.detail).toMatchObject({ day: 5, sendAt: "10:00" });
  });

  it("a campaign asked again: the new round's row names its parent, its round and whom it asks", async () => {
    const tag = newTag("audask");
    const request = await asked(tag);
    await database.db.execute(sql`update fund_requests set status = 'declined', decided_at = now() - interval '200 hours' where id = ${request}::uuid`);
    const [parent] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into campaigns (name, status, started_at) values ('Audited dues', 'done', now()) returning id`,
    );
    if (!parent) throw new Error("no campaign");
    await database.db.execute(
      sql`insert into campaign_rows (campaign_id, row, tag, amount_text, amount_naira, description, status, fund_request_id)
          values (${parent.id}::uuid, 1, ${tag}, '100', 100, 'Dues', 'sent', ${request}::uuid)`,
    );
    const outcome = await askAgainAudited(database.db, person, parent.id, { include: ["declined"], unansweredForHours: 0 });
    expect(outcome.kind).toBe("made");
    const [round] = await queryRows<{ id: string }>(database.db, sql`select id from campaigns where family_id = ${parent.id}::uuid`);
    expect(await auditOf(round?.id ?? "")).toEqual([
      {
        action: "campaign.asked_again",
        actor_id: person.id,
        actor_email: person.email,
        detail: { parentId: parent.id, round: 2, include: ["declined"], rows: 1, leftOut: 0 },
      },
    ]);
  });

  it("a payer marked do-not-ask and cleared: a row each, with the note", async () => {
    const tag = newTag("auddna");
    await asked(tag);
    expect(await setDoNotAsk(database.db, person, tag, { doNotAsk: true, note: "Asked us to stop" })).toBe(true);
    expect(await setDoNotAsk(database.db, person, tag, { doNotAsk: false, note: "" })).toBe(true);
    // Clearing a tag with no mark changes nothing and writes nothing.
    expect(await setDoNotAsk(database.db, person, tag, { doNotAsk: false, note: "" })).toBe(false);
    expect(await auditOf(tag)).toEqual([
      { action: "payer.do_not_ask_marked", actor_id: person.id, actor_email: person.email, detail: { note: "Asked us to stop" } },
      { action: "payer.do_not_ask_cleared", actor_id: person.id, actor_email: person.email, detail: null },
    ]);
    // And one `payer.updated` event for each change, none for the clear that changed nothing.
    expect((await eventsOf("tag", tag)).filter((e) => e.type.startsWith("payer."))).toEqual([
      { type: "payer.updated", data: { tag, doNotAsk: true, note: "Asked us to stop", markedBy: person.name } },
      { type: "payer.updated", data: { tag, doNotAsk: false, note: null, markedBy: null } },
    ]);
  });

  it("an exception reopened: the row names its kind and payment", async () => {
    const payment = randomUUID();
    const [row] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into exceptions (kind, subject, status, payment_uuid, detail, resolved_by_name, resolved_at, note)
          values ('verification_failed', ${payment}, 'resolved', ${payment}, 'x', 'Someone', now(), 'done') returning id`,
    );
    const id = row?.id ?? "";
    expect((await reopenExceptionAudited(database.db, person, id)).status).toBe("open");
    // Reopening an open one is refused, and writes nothing.
    await expect(reopenExceptionAudited(database.db, person, id)).rejects.toMatchObject({ message: expect.stringContaining("already open") });
    expect((await eventsOf("id", id)).map((e) => [e.type, e.data.status])).toEqual([["exception.opened", "open"]]);
    expect(await auditOf(id)).toEqual([
      { action: "exception.reopened", actor_id: person.id, actor_email: person.email, detail: { kind: "verification_failed", paymentUuid: payment } },
    ]);
  });
});

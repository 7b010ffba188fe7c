import { randomBytes, randomUUID } from "node:crypto";

import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { staffActor, type PublicActor, type StaffActor } from "@/lib/actors/actor";
import type { ParsedRow } from "@/lib/campaigns/parse";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import type { Role } from "@/lib/client/auth/roles";
import type { EventType } from "@/lib/client/events/catalogue";
import { payPageCreateSchema } from "@/lib/client/pay-pages/schemas";
import { queryRows } from "@/lib/db/client";
import { plans, staff } from "@/lib/db/schema";
import { scanExceptions } from "@/lib/exceptions/detect";
import { newChallenge } from "@/lib/pay-pages/challenge";
import { createPayPage } from "@/lib/pay-pages/manage";
import { submitPayPage } from "@/lib/pay-pages/submit";
import { followUpPayment } from "@/lib/payments/after-record";
import { runPlanClock } from "@/lib/plans/periods";
import { createPlan } from "@/lib/plans/repo";
import { runPlanPeriod } from "@/lib/plans/run-period";
import { sendNewRequest } from "@/lib/requests/new-request";
import { getRequestDetail } from "@/lib/requests/refresh";
import { processDelivery } from "@/lib/webhooks/intake";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase, type TestDatabase } from "@/tests/support/db-targets";
import { solvedChallenge } from "@/tests/support/pay-solve";
import { payload } from "@/tests/support/payloads";
import { planFields } from "@/tests/support/plan-fields";
import { newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";
import { deliverySignature } from "@/tests/support/sign-delivery";
import { waitFor } from "@/tests/support/wait-for";

// The catalogue's event types that no other test saw made by their own change (docs/architecture.md "Events"): each
// is driven here through the use case that makes the change, as a route or a job calls it (never appendEvent
// itself), and the events table then holds exactly one event of that type about the object, in its public shape; a
// repeat that changes nothing adds none. The rest are in lib/events/events.test.ts (request.created,
// payment.received, campaign.started and .finished, exception.resolved), lib/audit/person-actions.test.ts
// (exception.opened on a reopen, payer.updated) and tests/events/consumers.test.ts.

let sb: Sandbox;
let control: SandboxControl;
beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

interface EventRow {
  type: EventType;
  data: Record<string, unknown>;
}

/** Every event whose data's `field` is `value`, oldest first. */
function eventsAbout(database: TestDatabase, field: string, value: string): Promise<EventRow[]> {
  return queryRows<EventRow>(database.db, sql`select type, data from events where data->>${field} = ${value} order by id`);
}

/** A person of `role`, as withStaff makes them the actor. */
async function person(database: TestDatabase, role: Role, name: string): Promise<StaffActor> {
  const [row] = await database.db
    .insert(staff)
    .values({ email: `${role}-${randomBytes(4).toString("hex")}@example.test`, name, role, passwordHash: "x" })
    .returning();
  if (!row) throw new Error("staff insert returned nothing");
  return staffActor({ ...row, sessionId: null }, "203.0.113.40");
}

function roster(text: string): ParsedRow[] {
  const parsed = parseCampaignCsv(new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rows;
}

describe.each(dbTargets())("each event type from the change that makes it, on $name", (target) => {
  const database = useTestDatabase(target);
  let operator: StaffActor;
  let admin: StaffActor;

  beforeAll(async () => {
    operator = await person(database, "operator", "Ola Operator");
    admin = await person(database, "admin", "Ada Admin");
  });

  const deps = () => requestDeps(database.db, sb);

  /** A request sent as the form sends it, to a made-up person who waits for someone to accept or decline. */
  async function pendingRequest(label: string, amount = "150.00"): Promise<{ requestId: string; tag: string }> {
    const tag = newTag(label);
    const outcome = await sendNewRequest(deps(), operator, { tag, amount, description: "Gate levy", idempotencyKey: newKey(label) });
    if (outcome.kind !== "created" || !outcome.request.requestId) throw new Error(`sent: ${outcome.kind}`);
    return { requestId: outcome.request.requestId, tag };
  }

  /** A signed payment notice handed to the intake as the webhook route does; answers the payment's uuid. */
  async function deliver(body: string): Promise<string> {
    const result = await processDelivery(
      { db: database.db, apiKey: sb.apiKey, amountUnit: "major" },
      { raw: Buffer.from(body), signature: deliverySignature(body, sb.apiKey), contentType: "application/json", remoteAddr: null },
    );
    if (!result.recordedUuid) throw new Error(`intake answered ${result.status} ${result.message}`);
    return result.recordedUuid;
  }

  it("request.failed: a request the service refuses (no such user), with the service's reason; no request.created", async () => {
    const tag = `missing.${randomBytes(3).toString("hex")}`;
    const outcome = await sendNewRequest(deps(), operator, { tag, amount: "150.00", description: "Gate levy", idempotencyKey: newKey("failed") });
    if (outcome.kind !== "service_failed") throw new Error(`sent: ${outcome.kind}`);
    const reference = outcome.request.reference ?? "";
    expect(await eventsAbout(database, "reference", reference)).toEqual([
      {
        type: "request.failed",
        data: expect.objectContaining({ reference, requestId: null, tag, amount: "150.00", status: "failed", error: expect.stringContaining(`No user found`) }),
      },
    ]);
  });

  it("request.accepted and request.declined: the service's word, learned by a person's read of the request; reading again adds none", async () => {
    const accepted = await pendingRequest("accepts");
    const declined = await pendingRequest("declines");
    await control.accept(accepted.requestId);
    await control.decline(declined.requestId);
    for (const { requestId } of [accepted, declined]) {
      expect(await getRequestDetail(deps(), requestId)).toMatchObject({ kind: "found", request: { requestId } });
      await getRequestDetail(deps(), requestId);
    }
    const decided = (type: EventType, status: string, r: { requestId: string; tag: string }) => ({
      type,
      data: expect.objectContaining({ requestId: r.requestId, tag: r.tag, amount: "150.00", status, paymentUuid: null, decidedAt: expect.any(String) }),
    });
    expect((await eventsAbout(database, "requestId", accepted.requestId)).filter((e) => e.type !== "request.created")).toEqual([
      decided("request.accepted", "accepted", accepted),
    ]);
    expect((await eventsAbout(database, "requestId", declined.requestId)).filter((e) => e.type !== "request.created")).toEqual([
      decided("request.declined", "declined", declined),
    ]);
  });

  it("request.accepted by its payment, and payment.verified: a payment's follow-up links and verifies it; a repeat follow-up adds none", async () => {
    const { requestId, tag } = await pendingRequest("pays", "2000.00");
    await control.accept(requestId);
    const notice = await waitFor("the sandbox's payment notice", async () => (await control.deliveries()).find((d) => String(d.request_id) === requestId));
    const uuid = await deliver(notice.body);
    await followUpPayment(deps(), uuid);
    await followUpPayment(deps(), uuid);
    // A request's events carry its status and payment; payment.verified names its request too.
    const said = (e: EventRow) => [e.type, e.data.status ?? e.data.verification, e.data.paymentUuid ?? e.data.uuid ?? null];
    expect((await eventsAbout(database, "requestId", requestId)).map(said)).toEqual([
      ["request.created", "pending", null],
      ["request.accepted", "accepted", uuid],
      ["payment.verified", "verified", uuid],
    ]);
    expect(await eventsAbout(database, "uuid", uuid)).toEqual([
      { type: "payment.received", data: expect.objectContaining({ uuid, requestId: null, verification: "unverified" }) },
      {
        type: "payment.verified",
        data: expect.objectContaining({
          uuid,
          requestId,
          amount: "2000.00",
          verification: "verified",
          verifiedAt: expect.any(String),
          customer: expect.objectContaining({ tag }),
        }),
      },
    ]);
  });

  it("payment.verification_failed, then exception.opened by detection: a ₦1 notice the verify host does not know opens verification_failed and unlinked_payment once", async () => {
    // The tag has a ₦150 request waiting; the notice is a validly signed ₦1 for a transaction the service never made.
    const { requestId, tag } = await pendingRequest("stranger");
    const base = payload();
    const uuid = await deliver(
      JSON.stringify(
        payload({
          uuid: randomUUID(),
          amount: 1,
          actual_amount: 1,
          settled_amount: 1,
          fees: 0,
          customer: { ...base.customer, tag },
          meta: { peer_tag: tag, name: "Ada Obi" },
        }),
      ),
    );
    // What the payment's follow-up job does: link (nothing of ₦1 to link to), verify, then scan its exceptions.
    const scan = () => scanExceptions(database.db, { paymentUuids: [uuid], now: new Date(), lostWebhookMinutes: 30 });
    await followUpPayment(deps(), uuid);
    expect(await scan()).toMatchObject({ opened: 2 });
    await followUpPayment(deps(), uuid);
    expect(await scan()).toMatchObject({ opened: 0 });

    const aboutPayment = await eventsAbout(database, "uuid", uuid);
    expect(aboutPayment).toEqual([
      { type: "payment.received", data: expect.objectContaining({ uuid, amount: "1.00", verification: "unverified" }) },
      {
        type: "payment.verification_failed",
        data: expect.objectContaining({
          uuid,
          requestId: null,
          verification: "failed",
          verificationError: "The verify host does not know this transaction.",
          linkNote: expect.stringContaining("not linked"),
        }),
      },
    ]);
    const opened = (await eventsAbout(database, "paymentUuid", uuid)).sort((a, b) => String(a.data.kind).localeCompare(String(b.data.kind)));
    expect(opened).toEqual([
      {
        type: "exception.opened",
        data: expect.objectContaining({ kind: "unlinked_payment", status: "open", paymentUuid: uuid, tag, amount: "1.00", id: expect.any(String) }),
      },
      {
        type: "exception.opened",
        data: expect.objectContaining({
          kind: "verification_failed",
          status: "open",
          paymentUuid: uuid,
          tag,
          detail: "The verify host does not know this transaction.",
          id: expect.any(String),
        }),
      },
    ]);
    // The waiting request was left alone: no event of it but its creation.
    expect((await eventsAbout(database, "requestId", requestId)).map((e) => e.type)).toEqual(["request.created"]);
  });

  it("plan.period_made: a person runs the plan's current period; a second run is refused and adds none", async () => {
    const planId = await createPlan(
      database.db,
      planFields({ name: "Evented dues", day: 28, startsOn: "2026-08-01" }),
      "Africa/Lagos",
      roster(`tag,amount,description\n${newTag("made")},100,\n`),
      admin.id,
    );
    // 5 November in Lagos: November is the current period, due on the 28th at 09:00 (08:00 UTC).
    const now = new Date("2026-11-05T10:00:00Z");
    const made = await runPlanPeriod(database.db, operator, planId, "2026-11", now);
    if (made.kind !== "made") throw new Error(made.kind);
    expect(await runPlanPeriod(database.db, operator, planId, "2026-11", now)).toMatchObject({ kind: "refused", reason: "made" });
    expect((await eventsAbout(database, "planId", planId)).filter((e) => e.type.startsWith("plan."))).toEqual([
      {
        type: "plan.period_made",
        data: {
          planId,
          planName: "Evented dues",
          period: "2026-11",
          dueAt: "2026-11-28T08:00:00.000Z",
          campaignId: made.campaignId,
          madeBy: operator.id,
        },
      },
    ]);
  });

  it("pay_page.submitted: a payer submits a pay page; a refused submission adds none", async () => {
    const input = payPageCreateSchema.parse({ slug: `evt-${randomBytes(4).toString("hex")}`, title: "Estate dues", amount: { fixed: "5000" } });
    const created = await createPayPage(database.db, operator, input);
    if (created.kind !== "created") throw new Error(`page: ${created.kind}`);
    const { id: pageId, slug } = created.page;
    const payer: PublicActor = { kind: "public", ip: "203.0.113.41" };
    const tag = newTag("payer");
    const altcha = await solvedChallenge(await newChallenge());
    expect(await submitPayPage(database.db, payer, slug, { tag, fields: [], altcha })).toMatchObject({ kind: "accepted" });
    // The same solved challenge again is spent: refused, nothing queued.
    expect(await submitPayPage(database.db, payer, slug, { tag, fields: [], altcha })).toMatchObject({ kind: "challenge_refused" });
    expect(await eventsAbout(database, "pageId", pageId)).toEqual([{ type: "pay_page.submitted", data: { pageId, slug, tag, amount: "5000.00" } }]);
  });

  describe("the plans clock, in a database of its own (it ticks every plan there)", () => {
    const own = useTestDatabase(target);

    it("plan.period_missed: a period more than 72 hours late when the clock looks is listed missed, once, with why", async () => {
      const creator = await person(own, "admin", "Clock Admin");
      const planId = await createPlan(
        own.db,
        planFields({ name: "Late dues", startsOn: "2026-01-01" }),
        "Africa/Lagos",
        roster(`tag,amount,description\n${newTag("late")},100,\n`),
        creator.id,
      );
      // The plan ran from 15 January; the clock next looks on 10 February, 9 days after the 1 February period fell due.
      const since = new Date("2026-01-15T00:00:00Z");
      await own.db.update(plans).set({ activeSince: since, checkedUntil: since }).where(eq(plans.id, planId));
      const now = new Date("2026-02-10T12:00:00Z");
      expect(await runPlanClock(own.db, now)).toMatchObject({ made: [], missed: [{ planId, period: "2026-02" }] });
      expect(await runPlanClock(own.db, now)).toMatchObject({ made: [], missed: [] });
      expect(await eventsAbout(own, "planId", planId)).toEqual([
        { type: "plan.period_missed", data: { planId, planName: "Late dues", period: "2026-02", dueAt: "2026-02-01T08:00:00.000Z", reason: "late" } },
      ]);
    });
  });
});

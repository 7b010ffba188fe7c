import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { fundRequests, payPages, payPageSubmissions } from "@/lib/db/schema";
import { sendPayPageSubmissions } from "@/lib/pay-pages/send";
import { submitPayPage } from "@/lib/pay-pages/submit";
import { payPageKey } from "@/lib/requests/keys";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { inProcessApp } from "@/tests/support/in-process-app";
import { freshAltcha, PAY_APP_ENV } from "@/tests/support/pay-challenge";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { CREATE_CALL, sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress } from "@/tests/support/sign-in";

// The send job's key (docs/architecture.md "Pay pages"): each submission's request is keyed pp_<submission id>, so
// two passes at once, or a pass run again after one lost between the service's answer and marking the submission
// sent (a SIGKILL), ask the service once per submission. On both engines: Postgres runs the two passes truly at once.

const app = inProcessApp(PAY_APP_ENV);

describe.each(dbTargets())("the pay pages' send pass on $name", (target) => {
  const database = useTestDatabase(target);
  let slug: string;

  beforeAll(async () => {
    const operator = await insertStaff(database.db, "Pay Page Owner");
    slug = `idem-${target.name}`;
    const [page] = await database.db
      .insert(payPages)
      .values({ slug, title: "Water levy", amountFixed: "1200.00", successMessage: "Paid, thank you.", createdBy: operator.id })
      .returning();
    if (!page) throw new Error("page insert returned nothing");
  });

  const deps = () => requestDeps(database.db, app.sandbox, { service: { getRetries: 0 } });

  /** `count` submissions from as many tags, queued; their ids. */
  async function queue(count: number): Promise<string[]> {
    const tokens: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const outcome = await submitPayPage(database.db, { kind: "public", ip: fakeAddress() }, slug, {
        tag: newTag("kemi"),
        fields: [],
        altcha: await freshAltcha(),
      });
      if (outcome.kind !== "accepted") throw new Error(`submit: ${outcome.kind}`);
      tokens.push(outcome.token);
    }
    const rows = await database.db.select({ id: payPageSubmissions.id }).from(payPageSubmissions).where(inArray(payPageSubmissions.token, tokens));
    return rows.map((r) => r.id);
  }

  /** Each submission's status, how many requests were recorded to its tag, and whether it links the one its key made. */
  async function outcomes(ids: string[]) {
    const subs = await database.db.select().from(payPageSubmissions).where(inArray(payPageSubmissions.id, ids));
    const requests = await database.db
      .select({ id: fundRequests.id, tag: fundRequests.tag, key: fundRequests.idempotencyKey })
      .from(fundRequests)
      .where(
        inArray(
          fundRequests.tag,
          subs.map((s) => s.tag),
        ),
      );
    return subs.map((s) => {
      const mine = requests.filter((r) => r.tag === s.tag);
      return { status: s.status, requests: mine.length, linked: mine.length === 1 && mine[0]?.id === s.fundRequestId && mine[0]?.key === payPageKey(s.id) };
    });
  }

  it("run twice at once sends one request per submission", async () => {
    const control = sandboxControl(app.sandbox);
    const ids = await queue(3);
    const calls = await control.count(CREATE_CALL);
    const passes = await Promise.all([sendPayPageSubmissions(deps(), 50), sendPayPageSubmissions(deps(), 50)]);
    expect(passes.map((p) => p.more)).toEqual([false, false]);
    expect((await control.count(CREATE_CALL)) - calls).toBe(3);
    expect(await outcomes(ids)).toEqual(ids.map(() => ({ status: "sent", requests: 1, linked: true })));
  });

  it("run again after a pass lost before it marked a submission sent asks the service nothing more", async () => {
    const control = sandboxControl(app.sandbox);
    const [id = ""] = await queue(1);
    await sendPayPageSubmissions(deps(), 50);
    const [sent] = await database.db.select().from(payPageSubmissions).where(eq(payPageSubmissions.id, id));
    expect(sent?.status).toBe("sent");
    // As a SIGKILL between the service's answer and the mark leaves it: the request made, the submission still queued.
    await database.db.update(payPageSubmissions).set({ status: "queued", fundRequestId: null, sentAt: null }).where(eq(payPageSubmissions.id, id));
    const calls = await control.count(CREATE_CALL);
    expect(await sendPayPageSubmissions(deps(), 50)).toMatchObject({ handled: 1 });
    expect(await control.count(CREATE_CALL)).toBe(calls);
    expect(await outcomes([id])).toEqual([{ status: "sent", requests: 1, linked: true }]);
    const [again] = await database.db.select().from(payPageSubmissions).where(eq(payPageSubmissions.id, id));
    expect(again?.fundRequestId).toBe(sent?.fundRequestId);
  });
});

import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import type { StaffActor } from "@/lib/actors/actor";
import { payPagePatchSchema } from "@/lib/client/pay-pages/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";
import type { Db } from "@/lib/db/client";
import { auditLog, payPages } from "@/lib/db/schema";
import { errorResponse } from "@/lib/http/api-error";
import { changedPayPage, createdPayPage } from "@/lib/http/answers/pay-pages";
import { changePayPage, createPayPage } from "@/lib/pay-pages/manage";
import { inProcessApp } from "@/tests/support/in-process-app";
import { PAY_APP_ENV, payPageInput } from "@/tests/support/pay-challenge";

// The dashboard's pay pages (docs/architecture.md "Pay pages"): admins and operators make and change them, each change
// audited; a viewer is refused; a slug is one page's for good. withStaff needs a signed-in session, which no
// in-process suite makes, so this calls the routes' use cases with the routes' answers (lib/http/answers/pay-pages.ts)
// and turns what they throw into the answer as the guard does (errorResponse).

const app = inProcessApp(PAY_APP_ENV, { sandbox: false });

let db: Db;
let operator: StaffActor;
let viewer: StaffActor;

beforeAll(async () => {
  db = await app.db();
  operator = await app.person("operator", "Ola Operator");
  viewer = await app.person("viewer", "Vic Viewer");
});

/** What the route answers for `work`: its status and envelope, the thrown error's as the guard gives it. */
async function answerOf(work: () => Promise<PayPageView>, status: number): Promise<{ status: number; code?: string; data: unknown; message: string }> {
  try {
    return { status, data: await work(), message: "" };
  } catch (error) {
    const response = errorResponse(error, "test");
    const { code, data, message } = (await response.json()) as { code: string; data: unknown; message: string };
    return { status: response.status, code, data, message };
  }
}

const create = (actor: StaffActor, over: Record<string, unknown> = {}) =>
  answerOf(async () => createdPayPage(await createPayPage(db, actor, payPageInput(over))), 201);
const change = (actor: StaffActor, id: string, patch: unknown) =>
  answerOf(async () => changedPayPage(await changePayPage(db, actor, id, payPagePatchSchema.parse(patch))), 200);

const auditRows = (action: string, target: string) =>
  db
    .select({ actorId: auditLog.actorId, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.target, target)));

describe("POST /api/pay-pages (createPayPage)", () => {
  it("makes the page for an operator, answering 201, audited as pay_page.created", async () => {
    const made = await create(operator, { slug: "november-dues", title: "November dues" });
    expect(made.status).toBe(201);
    const page = made.data as PayPageView;
    expect(page).toMatchObject({
      slug: "november-dues",
      title: "November dues",
      active: true,
      state: "open",
      createdBy: { id: operator.id, name: "Ola Operator" },
    });
    expect(page.url).toBe("http://127.0.0.1:9/pay/november-dues");
    expect(await auditRows("pay_page.created", page.id)).toEqual([{ actorId: operator.id, detail: { slug: "november-dues", title: "November dues" } }]);
  });

  it("refuses a viewer with 403, making and auditing nothing", async () => {
    const refused = await create(viewer, { slug: "viewer-page" });
    expect([refused.status, refused.code]).toEqual([403, "forbidden"]);
    expect(refused.message).toContain("viewer");
    expect(await db.select().from(payPages).where(eq(payPages.slug, "viewer-page"))).toEqual([]);
  });

  it("refuses a slug another page has (in any case) with a 422 naming slug, changing nothing", async () => {
    const first = await create(operator, { slug: "estate-levy", title: "Estate levy" });
    expect(first.status).toBe(201);
    const taken = await create(operator, { slug: "Estate-Levy", title: "Another" });
    expect([taken.status, taken.code]).toEqual([422, "validation_failed"]);
    expect(Object.keys((taken.data as { fieldErrors: Record<string, unknown> }).fieldErrors)).toEqual(["slug"]);
    expect(await db.select({ title: payPages.title }).from(payPages).where(eq(payPages.slug, "estate-levy"))).toEqual([{ title: "Estate levy" }]);
    expect(await auditRows("pay_page.created", (first.data as PayPageView).id)).toHaveLength(1);
  });
});

describe("PATCH /api/pay-pages/:id (changePayPage)", () => {
  it("turns a page off and on again, each change audited as pay_page.changed with the fields changed", async () => {
    const made = await create(operator, { slug: "gate-fees" });
    const { id } = made.data as PayPageView;
    const off = await change(operator, id, { active: false });
    expect(off.status).toBe(200);
    expect(off.data).toMatchObject({ id, active: false, state: "off" });
    const on = await change(operator, id, { active: true });
    expect(on.data).toMatchObject({ id, active: true, state: "open" });
    expect(await auditRows("pay_page.changed", id)).toEqual([
      { actorId: operator.id, detail: { slug: "gate-fees", fields: ["active"] } },
      { actorId: operator.id, detail: { slug: "gate-fees", fields: ["active"] } },
    ]);
  });

  it("refuses a viewer with 403 and leaves the page as it was", async () => {
    const { id } = (await create(operator, { slug: "hall-booking" })).data as PayPageView;
    const refused = await change(viewer, id, { active: false });
    expect([refused.status, refused.code]).toEqual([403, "forbidden"]);
    expect(await db.select({ active: payPages.active }).from(payPages).where(eq(payPages.id, id))).toEqual([{ active: true }]);
    expect(await auditRows("pay_page.changed", id)).toEqual([]);
  });
});

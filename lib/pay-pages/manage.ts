import "server-only";

import { eq } from "drizzle-orm";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { PayPageAmount, PayPageCreate, PayPagePatch } from "@/lib/client/pay-pages/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";
import type { Db } from "@/lib/db/client";
import { payPages, plans } from "@/lib/db/schema";

import { getPayPage, listPayPages } from "./queries";

// Staff's pay pages (docs/architecture.md "Pay pages"): each use case authorizes the actor, changes, writes its audit
// row and answers a typed outcome the route turns into an answer.

type BadPlan = { kind: "bad_plan"; message: string };
export type PayPageCreateOutcome = { kind: "created"; page: PayPageView } | { kind: "slug_taken" } | BadPlan;
export type PayPageChangeOutcome = { kind: "changed"; page: PayPageView } | { kind: "not_found" } | BadPlan;

const by = (actor: Actor) => ({ actor: auditActorOf(actor), ip: auditIpOf(actor) });

function amountColumns(amount: PayPageAmount) {
  return "fixed" in amount
    ? { amountFixed: amount.fixed, amountMin: null, amountMax: null }
    : { amountFixed: null, amountMin: amount.min, amountMax: amount.max };
}

/** A plan a page may join: it exists and has not ended. */
async function checkPlan(db: Db, planId: string | null): Promise<BadPlan | null> {
  if (!planId) return null;
  const [plan] = await db.select({ status: plans.status }).from(plans).where(eq(plans.id, planId));
  if (!plan) return { kind: "bad_plan", message: "No such plan. Choose one from the list." };
  if (plan.status === "ended") return { kind: "bad_plan", message: "That plan has ended: a page cannot join people to it." };
  return null;
}

export async function listPayPageViews(db: Db, actor: Actor): Promise<PayPageView[]> {
  authorize(actor, "pay_pages.read");
  return listPayPages(db);
}

export async function payPageView(db: Db, actor: Actor, id: string): Promise<PayPageView | null> {
  authorize(actor, "pay_pages.read");
  return getPayPage(db, id);
}

/** A new page; its slug is unique (the constraint decides) and stays for good, as printed codes point at it. */
export async function createPayPage(db: Db, actor: Actor, input: PayPageCreate): Promise<PayPageCreateOutcome> {
  authorize(actor, "pay_pages.manage");
  const person = requirePerson(actor);
  const badPlan = await checkPlan(db, input.planId);
  if (badPlan) return badPlan;
  // The page and its audit row commit together.
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payPages)
      .values({
        slug: input.slug,
        title: input.title,
        description: input.description,
        ...amountColumns(input.amount),
        fields: input.fields,
        planId: input.planId,
        active: input.active,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        maxPayments: input.maxPayments,
        successMessage: input.successMessage,
        dailyLimit: input.dailyLimit,
        createdBy: person.id,
      })
      .onConflictDoNothing({ target: payPages.slug })
      .returning({ id: payPages.id });
    if (row) await writeAudit(tx, { action: "pay_page.created", ...by(actor), target: row.id, detail: { slug: input.slug, title: input.title } });
    return row?.id ?? null;
  });
  if (!id) return { kind: "slug_taken" };
  const page = await getPayPage(db, id);
  if (!page) throw new Error(`pay page ${id} vanished after it was made`);
  return { kind: "created", page };
}

/** Changes the given fields; audited with the names of the fields that changed. */
export async function changePayPage(db: Db, actor: Actor, id: string, patch: PayPagePatch): Promise<PayPageChangeOutcome> {
  authorize(actor, "pay_pages.manage");
  const current = await getPayPage(db, id);
  if (!current) return { kind: "not_found" };
  const planId = patch.planId === undefined ? (current.plan?.id ?? null) : patch.planId;
  const amount = patch.amount ?? current.amount;
  if (planId && !("fixed" in amount)) return { kind: "bad_plan", message: "A plan's page asks a fixed amount (the member's dues)" };
  if (patch.planId !== undefined) {
    const badPlan = await checkPlan(db, patch.planId);
    if (badPlan) return badPlan;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(payPages)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.amount !== undefined && amountColumns(patch.amount)),
        ...(patch.fields !== undefined && {
          fields: patch.fields.map((f) => ({ label: f.label, required: f.required ?? false, reference: f.reference ?? false })),
        }),
        ...(patch.planId !== undefined && { planId: patch.planId }),
        ...(patch.active !== undefined && { active: patch.active }),
        ...(patch.expiresAt !== undefined && { expiresAt: patch.expiresAt ? new Date(patch.expiresAt) : null }),
        ...(patch.maxPayments !== undefined && { maxPayments: patch.maxPayments }),
        ...(patch.successMessage !== undefined && { successMessage: patch.successMessage }),
        ...(patch.dailyLimit !== undefined && { dailyLimit: patch.dailyLimit }),
        updatedAt: new Date(),
      })
      .where(eq(payPages.id, id));
    await writeAudit(tx, { action: "pay_page.changed", ...by(actor), target: id, detail: { slug: current.slug, fields: Object.keys(patch) } });
  });
  const page = await getPayPage(db, id);
  if (!page) return { kind: "not_found" };
  return { kind: "changed", page };
}

import "server-only";

import { auditActorOf, auditIpOf, requirePerson, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import type { ParsedRow } from "@/lib/campaigns/parse";
import type { PlanFields } from "@/lib/client/plans/schemas";
import type { PlanView } from "@/lib/client/plans/view";
import type { Db } from "@/lib/db/client";

import { getPlanView } from "./queries";
import { createPlanWith } from "./repo";

/**
 * A person makes a plan from its roster: the plan, its members, its view and its audit row in one transaction, so
 * either the plan is answered or nothing was made (docs/architecture.md "Plans"). The actor needs `plans.write`; the
 * plan is made under its person (docs/architecture.md "Actors").
 */
export async function makePlan(db: Db, actor: Actor, fields: PlanFields, timeZone: string, rows: readonly ParsedRow[]): Promise<PlanView> {
  authorize(actor, "plans.write");
  const person = requirePerson(actor);
  return createPlanWith(db, fields, timeZone, rows, person.id, async (tx, id) => {
    const made = await getPlanView(tx, id);
    if (!made) throw new Error("the new plan could not be read back");
    await writeAudit(tx, {
      action: "plan.created",
      actor: auditActorOf(actor),
      target: id,
      detail: { name: fields.name, frequency: fields.frequency, members: made.members, invalid: made.invalidMembers },
      ip: auditIpOf(actor),
    });
    return made;
  });
}

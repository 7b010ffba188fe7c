import "server-only";

import { writeAudit } from "@/lib/audit/write";
import type { CurrentStaff } from "@/lib/auth/session";
import type { ParsedRow } from "@/lib/campaigns/parse";
import type { PlanFields } from "@/lib/client/plans/schemas";
import type { PlanView } from "@/lib/client/plans/view";
import type { Db } from "@/lib/db/client";

import { getPlanView } from "./queries";
import { createPlanWith } from "./repo";

/**
 * A person makes a plan from its roster: the plan, its members, its view and its audit row in one transaction, so
 * either the plan is answered or nothing was made (docs/architecture.md "Plans").
 */
export async function makePlan(
  db: Db,
  fields: PlanFields,
  timeZone: string,
  rows: readonly ParsedRow[],
  who: Pick<CurrentStaff, "id" | "email">,
  ip: string | null,
): Promise<PlanView> {
  return createPlanWith(db, fields, timeZone, rows, who.id, async (tx, id) => {
    const made = await getPlanView(tx, id);
    if (!made) throw new Error("the new plan could not be read back");
    await writeAudit(tx, {
      action: "plan.created",
      actor: { id: who.id, email: who.email },
      target: id,
      detail: { name: fields.name, frequency: fields.frequency, members: made.members, invalid: made.invalidMembers },
      ip,
    });
    return made;
  });
}

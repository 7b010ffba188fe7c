import "server-only";

import { auditActorOf, auditIpOf, type Actor } from "@/lib/actors/actor";
import { authorize } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { findStaffById } from "@/lib/auth/accounts";
import type { Db } from "@/lib/db/client";

import { getSettings, saveSettings, type TeamSettings } from "./repo";

export type SettingsChangeOutcome =
  /** Requiring two-step sign-in of everyone by someone without it would shut them out of the settings page. */
  | { kind: "own_two_step_off" }
  | { kind: "saved"; before: TeamSettings; after: TeamSettings; require2faChanged: boolean; chasingChanged: boolean; nameChanged: boolean };

/**
 * An admin changes the team settings (docs/architecture.md "Actors"): `require2fa`, the chasing policy and the
 * business's name, an audit row for each that changed; the route says what changed.
 */
export async function changeSettings(db: Db, actor: Actor, patch: Partial<TeamSettings>): Promise<SettingsChangeOutcome> {
  authorize(actor, "settings.manage");
  // Else the rule would shut its own author out of this page until they set it up.
  if (patch.require2fa && actor.kind === "staff" && (await findStaffById(db, actor.id))?.totpSecret == null) return { kind: "own_two_step_off" };
  const before = await getSettings(db);
  const after = await saveSettings(db, patch);
  const by = { actor: auditActorOf(actor), ip: auditIpOf(actor) };
  const require2faChanged = before.require2fa !== after.require2fa;
  if (require2faChanged) await writeAudit(db, { action: "settings.require_2fa_changed", ...by, detail: { from: before.require2fa, to: after.require2fa } });
  const chasingChanged = before.declineCooldownHours !== after.declineCooldownHours || before.maxAsksPerTag !== after.maxAsksPerTag;
  if (chasingChanged) {
    await writeAudit(db, {
      action: "settings.chasing_changed",
      ...by,
      detail: {
        declineCooldownHours: after.declineCooldownHours,
        maxAsksPerTag: after.maxAsksPerTag,
        before: { declineCooldownHours: before.declineCooldownHours, maxAsksPerTag: before.maxAsksPerTag },
      },
    });
  }
  const nameChanged = before.businessName !== after.businessName;
  if (nameChanged) await writeAudit(db, { action: "settings.business_name_changed", ...by, detail: { from: before.businessName, to: after.businessName } });
  return { kind: "saved", before, after, require2faChanged, chasingChanged, nameChanged };
}

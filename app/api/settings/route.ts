import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ADMINS } from "@/lib/client/auth/roles";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getSettings, saveSettings } from "@/lib/settings/repo";
import { settingsPatchSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Team settings: `require2fa`, and the chasing policy (`declineCooldownHours`, `maxAsksPerTag`). */
export const GET = withStaff(ADMINS, async (_request, { db }) => ok(await getSettings(db)));

export const PATCH = withStaff(ADMINS, async (request, { db, staff, ip }) => {
  const body = await parseJsonBody(request, settingsPatchSchema);
  // Else the rule would shut its own author out of this page until they set it up.
  if (body.require2fa && !staff.twoStepEnabled) {
    throw conflict("Turn on your own two-step sign-in first (on your account page), then require it for everyone.");
  }
  const before = await getSettings(db);
  const after = await saveSettings(db, body);
  const messages: string[] = [];
  if (before.require2fa !== after.require2fa) {
    await writeAudit(db, { action: "settings.require_2fa_changed", actor: staff, detail: { from: before.require2fa, to: after.require2fa }, ip });
    messages.push(after.require2fa ? "Two-step sign-in is now required for everyone." : "Two-step sign-in is now optional.");
  }
  if (before.declineCooldownHours !== after.declineCooldownHours || before.maxAsksPerTag !== after.maxAsksPerTag) {
    await writeAudit(db, {
      action: "settings.chasing_changed",
      actor: staff,
      detail: { declineCooldownHours: after.declineCooldownHours, maxAsksPerTag: after.maxAsksPerTag, before: { ...before, require2fa: undefined } },
      ip,
    });
    messages.push(
      `Chasing: ${after.declineCooldownHours} hours' cool-down after a decline, at most ${after.maxAsksPerTag} asks a person in a campaign family.`,
    );
  }
  return ok(after, messages.join(" ") || "Nothing changed.");
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

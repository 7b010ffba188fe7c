import { withStaff } from "@/lib/auth/guard";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changeSettings } from "@/lib/settings/change-settings";
import { getSettings } from "@/lib/settings/repo";
import { settingsPatchSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Team settings: `require2fa`, the chasing policy (`declineCooldownHours`, `maxAsksPerTag`) and `businessName`. */
export const GET = withStaff("settings.manage", async (_request, { db }) => ok(await getSettings(db)));

export const PATCH = withStaff("settings.manage", async (request, { db, actor }) => {
  const outcome = await changeSettings(db, actor, await parseJsonBody(request, settingsPatchSchema));
  if (outcome.kind === "own_two_step_off") {
    throw conflict("Turn on your own two-step sign-in first (on your account page), then require it for everyone.");
  }
  const { after } = outcome;
  const messages: string[] = [];
  if (outcome.require2faChanged) messages.push(after.require2fa ? "Two-step sign-in is now required for everyone." : "Two-step sign-in is now optional.");
  if (outcome.chasingChanged) {
    messages.push(
      `Chasing: ${after.declineCooldownHours} hours' cool-down after a decline, at most ${after.maxAsksPerTag} asks a person in a campaign family.`,
    );
  }
  if (outcome.nameChanged) messages.push(`Payers now see the name ${after.businessName}.`);
  return ok(after, messages.join(" ") || "Nothing changed.");
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

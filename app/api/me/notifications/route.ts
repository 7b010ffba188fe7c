import { withStaff } from "@/lib/auth/guard";
import { preferencesSchema } from "@/lib/client/notifications/preferences-schema";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changeMyPreferences, myPreferences } from "@/lib/notifications/use-cases";

export const dynamic = "force-dynamic";

/** What the person is told, per event type, and how (docs/architecture.md "Notifications"). */
export const GET = withStaff("account.own", async (_request, { db, actor }) => ok(await myPreferences(db, actor)));

export const PUT = withStaff("account.own", async (request, { db, actor }) => {
  const outcome = await changeMyPreferences(db, actor, await parseJsonBody(request, preferencesSchema));
  return ok(outcome.preferences, "Your notification settings are saved.");
});

export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");

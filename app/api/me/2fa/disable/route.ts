import { checkRefusal } from "@/app/api/me/confirm";
import { withStaff } from "@/lib/auth/guard";
import { disableOwnTwoStep } from "@/lib/auth/own-account";
import { conflict } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { twoStepConfirmSchema } from "@/lib/client/staff/schemas";

export const dynamic = "force-dynamic";

/** Turns the person's own two-step sign-in off: their password and a current code (or a recovery code), throttled like sign-in. */
export const POST = withStaff("account.own", async (request, { db, actor }) => {
  const outcome = await disableOwnTwoStep(db, actor, await parseJsonBody(request, twoStepConfirmSchema));
  if (outcome.kind === "required") throw conflict("Your team requires two-step sign-in, so it cannot be turned off. Ask an admin.");
  if (outcome.kind === "refused") throw checkRefusal(outcome, "password");
  return ok({}, "Two-step sign-in is off.");
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

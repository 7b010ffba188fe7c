import { withStaff } from "@/lib/auth/guard";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { resendDelivery } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** The delivery again, with the same body and webhook-id (receivers dedupe on it). */
export const POST = withStaff<{ id: string }>("webhooks.manage", async (_request, { db, actor, params }) => {
  const outcome = await resendDelivery(db, actor, params.id);
  if (outcome.kind === "not_found") throw notFound("No such delivery. Deliveries are kept 30 days.");
  if (outcome.kind === "pending") throw conflict("This delivery is still being tried; wait for its next attempt, or for it to fail, before re-sending.");
  return ok(outcome.delivery, "Queued again.", 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

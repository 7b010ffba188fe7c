import { withStaff } from "@/lib/auth/guard";
import { recoverSchema } from "@/lib/client/outbound/schemas";
import { notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { recoverSince } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** Queues again every failed delivery to this endpoint since `since` (the same bodies and webhook-ids). */
export const POST = withStaff<{ id: string }>("webhooks.manage", async (request, { db, actor, params }) => {
  const { since } = await parseJsonBody(request, recoverSchema);
  const outcome = await recoverSince(db, actor, params.id, new Date(since));
  if (outcome.kind === "not_found") throw notFound("No such webhook endpoint. It may have been deleted.");
  return ok({ queued: outcome.count }, outcome.count === 1 ? "1 failed delivery queued again." : `${outcome.count} failed deliveries queued again.`, 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

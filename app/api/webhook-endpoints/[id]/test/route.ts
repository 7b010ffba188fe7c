import { withStaff } from "@/lib/auth/guard";
import { testEventSchema } from "@/lib/client/outbound/schemas";
import { notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { sendTestEvent } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** A sample event of `type` to this endpoint only; its delivery shows in the endpoint's log. */
export const POST = withStaff<{ id: string }>("webhooks.manage", async (request, { db, actor, params }) => {
  const { type } = await parseJsonBody(request, testEventSchema);
  const outcome = await sendTestEvent(db, actor, params.id, type);
  if (outcome.kind === "not_found") throw notFound("No such webhook endpoint. It may have been deleted.");
  return ok(outcome.delivery, `A test ${type} event is on its way.`, 202);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

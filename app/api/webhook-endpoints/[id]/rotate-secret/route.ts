import { withStaff } from "@/lib/auth/guard";
import { rotateSecretSchema } from "@/lib/client/outbound/schemas";
import { notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { rotateSecret } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** A new signing secret, answered once; the old one signs beside it for `overlapHours` (0–168, default 24). */
export const POST = withStaff<{ id: string }>("webhooks.manage", async (request, { db, actor, params }) => {
  const { overlapHours } = await parseJsonBody(request, rotateSecretSchema);
  const outcome = await rotateSecret(db, actor, params.id, overlapHours);
  if (outcome.kind === "not_found") throw notFound("No such webhook endpoint. It may have been deleted.");
  const overlap = overlapHours === 0 ? "The old secret stopped signing now." : `The old secret keeps signing beside it for ${overlapHours} hours.`;
  return ok({ ...outcome.endpoint, secret: outcome.secret }, `New signing secret made. Copy it now. ${overlap}`);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { revealSecret } from "@/lib/outbound/manage";

export const dynamic = "force-dynamic";

/** The current signing secret; every reveal is in the audit log. */
export const POST = withStaff<{ id: string }>("webhooks.manage", async (_request, { db, actor, params }) => {
  const outcome = await revealSecret(db, actor, params.id);
  if (outcome.kind === "not_found") throw notFound("No such webhook endpoint. It may have been deleted.");
  return ok({ secret: outcome.secret }, "The signing secret (this reveal is in the audit log).", 200, { "Cache-Control": "no-store" });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import { revokeApiKey } from "@/lib/api-keys/manage";
import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Revokes the key for good: its next call is a 401. Revoking a revoked key changes nothing. */
export const DELETE = withStaff<{ id: string }>("api_keys.manage", async (_request, { db, actor, params }) => {
  const outcome = await revokeApiKey(db, actor, params.id);
  if (outcome.kind === "not_found") throw notFound("No such API key.");
  return ok(outcome.apiKey, outcome.kind === "already" ? "This key was already revoked." : "API key revoked: it no longer works.");
});

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");

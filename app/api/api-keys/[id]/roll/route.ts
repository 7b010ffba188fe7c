import { rollApiKey } from "@/lib/api-keys/manage";
import { withStaff } from "@/lib/auth/guard";
import { apiKeyRollSchema } from "@/lib/client/api-keys/schemas";
import { conflict, notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** A new key with the same scopes, whole in this answer only; the old one works on for `overlapHours` (0, 1, 24, 168). */
export const POST = withStaff<{ id: string }>("api_keys.manage", async (request, { db, actor, params }) => {
  const { overlapHours } = await parseJsonBody(request, apiKeyRollSchema);
  const outcome = await rollApiKey(db, actor, params.id, overlapHours);
  if (outcome.kind === "not_found") throw notFound("No such API key.");
  if (outcome.kind === "refused") throw conflict(outcome.message);
  const overlap = overlapHours === 0 ? "The old key stopped working now." : `The old key keeps working for ${overlapHours} more hours.`;
  return ok({ apiKey: outcome.apiKey, key: outcome.key }, `New key made. Copy it now: it is shown this once. ${overlap}`, 200, { "Cache-Control": "no-store" });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import { createApiKey, listApiKeys } from "@/lib/api-keys/manage";
import { withStaff } from "@/lib/auth/guard";
import { apiKeyCreateSchema } from "@/lib/client/api-keys/schemas";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Every API key, newest first, masked (docs/architecture.md "The API"). */
export const GET = withStaff("api_keys.manage", async (_request, { db, actor }) => {
  const items = await listApiKeys(db, actor);
  return ok({ items, page: 1, pageSize: items.length, total: items.length }, "OK", 200, { "Cache-Control": "no-store" });
});

/** A new key: whole in this answer only. */
export const POST = withStaff("api_keys.manage", async (request, { db, actor }) => {
  const created = await createApiKey(db, actor, await parseJsonBody(request, apiKeyCreateSchema));
  return ok(created, "API key made. Copy it now: it is shown this once.", 201, { "Cache-Control": "no-store" });
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

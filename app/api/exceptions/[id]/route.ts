import { withStaff } from "@/lib/auth/guard";
import { readException } from "@/lib/exceptions/queries";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** One exception, with the requests its payment could be linked to (same tag and amount first, then same tag). */
export const GET = withStaff<{ id: string }>("exceptions.read", async (_request, { db, params }) => {
  const found = await readException(db, params.id);
  if (!found) throw notFound("No such exception. It may have been opened on another dashboard.");
  return ok(found, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

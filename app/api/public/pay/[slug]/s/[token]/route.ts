import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { withPublic } from "@/lib/http/public-route";
import { readPayStatus } from "@/lib/pay-pages/queries";

export const dynamic = "force-dynamic";

/** The payer's status link as data, for the status page's own polling. */
export const GET = withPublic<{ slug: string; token: string }>(async (_request, { db, params }) => {
  const status = await readPayStatus(db, params.slug, params.token);
  if (!status) throw notFound("No such payment link. Check the address.");
  return ok(status, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

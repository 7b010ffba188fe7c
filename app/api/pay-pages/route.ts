import { withStaff } from "@/lib/auth/guard";
import { payPageCreateSchema } from "@/lib/client/pay-pages/schemas";
import { createdPayPage } from "@/lib/http/answers/pay-pages";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { createPayPage, listPayPageViews } from "@/lib/pay-pages/manage";

export const dynamic = "force-dynamic";

/** Every pay page, newest first, with its counts (docs/architecture.md "Pay pages"). */
export const GET = withStaff("pay_pages.read", async (_request, { db, actor }) => {
  const pages = await listPayPageViews(db, actor);
  return ok({ pages }, "OK", 200, { "Cache-Control": "no-store" });
});

/** A new pay page (admins and operators; audited). */
export const POST = withStaff("pay_pages.manage", async (request, { db, actor }) => {
  const page = createdPayPage(await createPayPage(db, actor, await parseJsonBody(request, payPageCreateSchema)));
  return ok(page, "Pay page made. Share its link or print its QR code.", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

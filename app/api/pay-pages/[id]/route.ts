import { withStaff } from "@/lib/auth/guard";
import { payPagePatchSchema } from "@/lib/client/pay-pages/schemas";
import { notFound } from "@/lib/http/api-error";
import { changedPayPage, PAGE_MISSING } from "@/lib/http/answers/pay-pages";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { changePayPage, payPageView } from "@/lib/pay-pages/manage";

export const dynamic = "force-dynamic";

/** One pay page with its counts. */
export const GET = withStaff<{ id: string }>("pay_pages.read", async (_request, { db, actor, params }) => {
  const page = await payPageView(db, actor, params.id);
  if (!page) throw notFound(PAGE_MISSING);
  return ok(page, "OK", 200, { "Cache-Control": "no-store" });
});

/** Changes a pay page's fields (its slug stays); audited. */
export const PATCH = withStaff<{ id: string }>("pay_pages.manage", async (request, { db, actor, params }) => {
  const page = changedPayPage(await changePayPage(db, actor, params.id, await parseJsonBody(request, payPagePatchSchema)));
  return ok(page, "Pay page saved.");
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

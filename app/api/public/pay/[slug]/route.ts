import { paySubmitSchema } from "@/lib/client/pay-pages/schemas";
import { submittedPayPage } from "@/lib/http/answers/pay-pages";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { withPublic } from "@/lib/http/public-route";
import { submitPayPage } from "@/lib/pay-pages/submit";

export const dynamic = "force-dynamic";

/** A payer asks to be sent the page's request: 202 with the status link, the same whatever the tag. */
export const POST = withPublic<{ slug: string }>(async (request, { db, actor, params }) => {
  const body = await parseJsonBody(request, paySubmitSchema);
  const answer = submittedPayPage(await submitPayPage(db, actor, params.slug, body), params.slug);
  return ok(answer, "Sent on: approve the request in your app.", 202, { "Cache-Control": "no-store" });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

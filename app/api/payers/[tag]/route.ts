import { withStaff } from "@/lib/auth/guard";
import { doNotAskPatchSchema } from "@/lib/client/payers/schemas";
import { payerKey } from "@/lib/client/payers/tag";
import { notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { setDoNotAsk } from "@/lib/payers/do-not-ask";
import { readPayerDetail } from "@/lib/payers/queries";

export const dynamic = "force-dynamic";

const UNKNOWN = "Nobody with that tag has been asked or has paid yet. Check the tag, or find them on the Payers page.";

/** A payer with their contact (masked for viewers) and history. */
export const GET = withStaff<{ tag: string }>("payers.read", async (_request, { db, params, staff }) => {
  const detail = await readPayerDetail(db, payerKey(params.tag), staff.role);
  if (!detail) throw notFound(UNKNOWN);
  return ok(detail, "OK", 200, { "Cache-Control": "no-store" });
});

/** Do not ask (docs/architecture.md "Payers and chasing"): marks or clears a payer, audited; a marked tag is refused by every way of asking. */
export const PATCH = withStaff<{ tag: string }>("payers.write", async (request, { db, params, staff, actor }) => {
  const key = payerKey(params.tag);
  const body = await parseJsonBody(request, doNotAskPatchSchema);
  if (!(await readPayerDetail(db, key, staff.role))) throw notFound(UNKNOWN);
  await setDoNotAsk(db, actor, key, body);
  const detail = await readPayerDetail(db, key, staff.role);
  return ok(detail, body.doNotAsk ? `@${key} will not be asked again until this is cleared.` : `@${key} may be asked again.`);
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

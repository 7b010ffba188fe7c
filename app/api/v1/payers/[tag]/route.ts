import { getPayer, patchPayer } from "@/lib/api/v1/ops/reads";
import { parseBody } from "@/lib/api/v1/parse";
import { viewRoleOf } from "@/lib/actors/actor";
import { withApiKey } from "@/lib/api-keys/guard";
import { payerKey } from "@/lib/client/payers/tag";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { setDoNotAsk } from "@/lib/payers/do-not-ask";
import { readPayerDetail } from "@/lib/payers/queries";

export const dynamic = "force-dynamic";

const UNKNOWN = "Nobody with that tag has been asked or has paid yet. Check the tag, or list the payers.";

export const GET = withApiKey<{ tag: string }>(getPayer, async (_request, { db, params, actor }) => {
  const detail = await readPayerDetail(db, payerKey(params.tag), viewRoleOf(actor));
  if (!detail) throw notFound(UNKNOWN);
  return ok(detail);
});

export const PATCH = withApiKey<{ tag: string }>(patchPayer, async (request, { db, params, actor }) => {
  const key = payerKey(params.tag);
  const body = await parseBody(patchPayer, request);
  if (!(await readPayerDetail(db, key, viewRoleOf(actor)))) throw notFound(UNKNOWN);
  await setDoNotAsk(db, actor, key, body);
  return ok(
    await readPayerDetail(db, key, viewRoleOf(actor)),
    body.doNotAsk ? `@${key} will not be asked again until this is cleared.` : `@${key} may be asked again.`,
  );
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

import { listPayers } from "@/lib/api/v1/ops/reads";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { PAYER_COUNT_CAP, readPayerPage } from "@/lib/payers/queries";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listPayers, async (request, { db }) => {
  const { page, pageSize, q, filter } = parseQuery(listPayers, request);
  return ok(await readPayerPage(db, { q: q?.replace(/^@/, "") || undefined, filter, sort: "recent", page }, PAYER_COUNT_CAP, pageSize));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

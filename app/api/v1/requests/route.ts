import { createRequest, listRequests } from "@/lib/api/v1/ops/requests";
import { parseBody, parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { getConfig } from "@/lib/config";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { answerNewRequest } from "@/lib/http/answers/new-request";
import { requestKeyForApi } from "@/lib/requests/api-key";
import { requestDeps } from "@/lib/requests/deps";
import { readRequestPage } from "@/lib/requests/list";
import { sendNewRequest } from "@/lib/requests/new-request";
import { getApiService } from "@/lib/service/app-client";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listRequests, async (request, { db }) => {
  const { page, pageSize, status, tag } = parseQuery(listRequests, request);
  return ok(await readRequestPage(db, { page, status, tag }, getConfig().timeZone, pageSize));
});

export const POST = withApiKey(createRequest, async (request, { db, actor, idempotencyKey }) => {
  const body = await parseBody(createRequest, request);
  const idem = requestKeyForApi(actor.id, idempotencyKey ?? "");
  return answerNewRequest(await sendNewRequest(requestDeps(db, getApiService()), actor, { ...body, idempotencyKey: idem }));
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

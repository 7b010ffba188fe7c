import { getRequest } from "@/lib/api/v1/ops/requests";
import { withApiKey } from "@/lib/api-keys/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { requestDeps } from "@/lib/requests/deps";
import { getRequestDetail } from "@/lib/requests/refresh";
import { getApiService } from "@/lib/service/app-client";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ requestId: string }>(getRequest, async (_request, { db, params }) => {
  const outcome = await getRequestDetail(requestDeps(db, getApiService()), params.requestId);
  if (outcome.kind === "not_found") throw notFound(`No fund request ${params.requestId} was found here or at the service.`);
  return ok(outcome.request, outcome.stale ?? "OK");
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

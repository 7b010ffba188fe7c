import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { requestDeps } from "@/lib/requests/deps";
import { getRequestDetail } from "@/lib/requests/refresh";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// A ServiceError from the service call (502/503/504, data {kind}; our budget's refusal is a 503 with
// Retry-After) propagates: withStaff answers it.
export const GET = withStaff<{ requestId: string }>("requests.read", async (_request, { db, params }) => {
  const outcome = await getRequestDetail(requestDeps(db), params.requestId);
  if (outcome.kind === "not_found") throw notFound(`No fund request ${params.requestId} was found here or at the service.`);
  return ok(outcome.request, outcome.stale ?? "OK");
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

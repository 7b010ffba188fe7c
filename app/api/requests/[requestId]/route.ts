import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { requestDeps } from "@/lib/requests/deps";
import { getRequestDetail } from "@/lib/requests/refresh";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// A PacedError (503, data {kind: "paced"}, Retry-After) or a ServiceError (502/503/504, data {kind})
// from the service call propagates: withStaff answers it.
export const GET = withStaff<{ requestId: string }>(ANY_STAFF, async (_request, { db, params }) => {
  const outcome = await getRequestDetail(requestDeps(db), params.requestId);
  if (outcome.kind === "not_found") throw notFound(`No fund request ${params.requestId} was found here or at the service.`);
  return ok(outcome.request, outcome.stale ?? "OK");
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

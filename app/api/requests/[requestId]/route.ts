import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/auth/roles";
import { fail, ok } from "@/lib/http/envelope";
import { statusForServiceError } from "@/lib/http/service-status";
import { requestDeps } from "@/lib/requests/app-deps";
import { isPacedError } from "@/lib/requests/fetch-gate";
import { getRequestDetail } from "@/lib/requests/refresh";
import { REQUEST_ID_RE } from "@/lib/requests/schemas";
import { ServiceError } from "@/lib/service/errors";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff<{ requestId: string }>(ANY_STAFF, async (_request, { db, params }) => {
  if (!REQUEST_ID_RE.test(params.requestId)) {
    return fail(400, "That request id is not valid: use 1 to 64 letters, digits, hyphens or underscores.");
  }
  try {
    const outcome = await getRequestDetail(requestDeps(db), params.requestId);
    if (outcome.kind === "not_found") return fail(404, `No fund request ${params.requestId} was found here or at the service.`);
    return ok(outcome.request, outcome.stale ?? "OK");
  } catch (error) {
    if (isPacedError(error)) {
      return fail(503, error.userMessage, { kind: "paced" }, { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterMs / 1000))) });
    }
    if (error instanceof ServiceError) return fail(statusForServiceError(error), error.userMessage, { kind: error.kind });
    throw error;
  }
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

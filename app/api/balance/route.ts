import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/auth/roles";
import { getBalanceView } from "@/lib/balance/cache";
import { fail, ok } from "@/lib/http/envelope";
import { statusForServiceError } from "@/lib/http/service-status";
import { ServiceError } from "@/lib/service/errors";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff(ANY_STAFF, async (request) => {
  try {
    const view = await getBalanceView({ fresh: request.nextUrl.searchParams.get("refresh") === "1" });
    return ok(view);
  } catch (error) {
    if (error instanceof ServiceError) return fail(statusForServiceError(error), error.userMessage, { kind: error.kind });
    throw error;
  }
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

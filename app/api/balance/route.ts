import { withStaff } from "@/lib/auth/guard";
import { getBalanceView } from "@/lib/balance/cache";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// A failed service call propagates: withStaff answers its ServiceError (502/503/504, data {kind}).
export const GET = withStaff("reports.read", async (request) => {
  const view = await getBalanceView({ fresh: request.nextUrl.searchParams.get("refresh") === "1" });
  return ok(view);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

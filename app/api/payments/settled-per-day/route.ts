import { getConfig } from "@/lib/config";
import { withStaff } from "@/lib/auth/guard";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { settledPerDay } from "@/lib/payments/query";

export const dynamic = "force-dynamic";

/** The payments page's chart: the amount settled per day (in TIMEZONE) of the last 30, oldest first (docs/architecture.md). */
export const GET = withStaff("reports.read", async (_request, { db }) => {
  return ok(await settledPerDay(db, getConfig().timeZone), "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { withStaff } from "@/lib/auth/guard";
import { getConfig } from "@/lib/config";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { deskTotals } from "@/lib/payments/desk";

export const dynamic = "force-dynamic";

/** The daily desk: money in today, this week and this month (days in TIMEZONE), and what is still asked for. */
export const GET = withStaff("reports.read", async (_request, { db }) => ok(await deskTotals(db, getConfig().timeZone)));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

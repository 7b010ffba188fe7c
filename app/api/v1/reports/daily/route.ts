import { getDailyReport } from "@/lib/api/v1/ops/reports";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { getConfig } from "@/lib/config";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readAskedDayBook } from "@/lib/http/answers/reports";

export const dynamic = "force-dynamic";

export const GET = withApiKey(getDailyReport, async (request, { db }) =>
  ok(await readAskedDayBook(db, parseQuery(getDailyReport, request), getConfig().timeZone)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

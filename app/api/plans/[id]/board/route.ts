import { withStaff } from "@/lib/auth/guard";
import { boardQuerySchema } from "@/lib/client/plans/schemas";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { notFound } from "@/lib/http/api-error";
import { csvResponse } from "@/lib/http/csv-response";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { boardCsv } from "@/lib/plans/board-csv";
import { readBoard } from "@/lib/plans/queries";
import { findPlan } from "@/lib/plans/repo";

export const dynamic = "force-dynamic";

/** The dues board (docs/architecture.md "Plans"): ?periods=12&owing=1&page=2 (one page of members, totals over all), or format=csv for every member. */
export const GET = withStaff<{ id: string }>("plans.read", async (request, { db, params }) => {
  const plan = await findPlan(db, params.id);
  if (!plan) throw notFound("No such plan. It may have been made on another dashboard.");
  const query = boardQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const board = await readBoard(db, plan, query.periods, query.owing, new Date(), query.format === "csv" ? "all" : { page: query.page });
  if (query.format === "csv") return csvResponse(boardCsv(board), csvFilename("dues-board", getConfig().timeZone));
  return ok(board, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

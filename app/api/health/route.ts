import { sql } from "drizzle-orm";

import { getDatabase } from "@/lib/db";
import { ok, fail } from "@/lib/http/envelope";
import { lastServiceCall } from "@/lib/service/app-client";
import { otherMethods } from "@/lib/http/other-methods";
import { safeErrorSummary } from "@/lib/log/safe-error";

export const dynamic = "force-dynamic";

/** Public liveness: is the database reachable, and how did the last service call go. */
export async function GET() {
  const service = lastServiceCall();
  try {
    const { db } = await getDatabase();
    await db.execute(sql`select 1`);
    return ok({ db: "ok" as const, service }, "Healthy");
  } catch (error) {
    console.error(`[health] database check failed: ${safeErrorSummary(error)}`);
    return fail(503, "The database is not reachable.", { db: "error" as const, service });
  }
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

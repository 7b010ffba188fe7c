import { sql } from "drizzle-orm";

import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { currentStaff } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { ok, fail } from "@/lib/http/envelope";
import { lastServiceCall } from "@/lib/service/app-client";
import { mailHealth } from "@/lib/notifications/health";
import { otherMethods } from "@/lib/http/other-methods";
import { safeErrorSummary } from "@/lib/log/safe-error";

export const dynamic = "force-dynamic";

/** Liveness for anyone (is the database reachable); the last service call and e-mail's state for signed-in admins only. */
export async function GET() {
  let reachable = true;
  try {
    const { db } = await getDatabase();
    await db.execute(sql`select 1`);
  } catch (error) {
    reachable = false;
    console.error(`[health] database check failed: ${safeErrorSummary(error)}`);
  }
  const staff = reachable ? await currentStaff().catch(() => null) : null;
  const detail = staff !== null && can(staffActor(staff), "health.detail");
  const extra = detail ? { service: lastServiceCall(), mail: await mailHealth((await getDatabase()).db) } : {};
  if (!reachable) return fail(503, "The database is not reachable.", { db: "error" as const }, undefined, "service_unavailable");
  return ok({ db: "ok" as const, ...extra }, "Healthy", 200, { "Cache-Control": "no-store" });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import "server-only";

import type { NextRequest } from "next/server";

import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { fail } from "@/lib/http/envelope";
import { isSameOrigin } from "@/lib/http/origin";

import type { Role } from "./roles";
import { currentStaff, type CurrentStaff } from "./session";
import { safeErrorSummary } from "@/lib/log/safe-error";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface StaffContext<P> {
  staff: CurrentStaff;
  params: P;
  db: Db;
  ip: string;
}

type Params = Record<string, string | string[] | undefined>;

/**
 * Every staff route handler is wrapped by this, naming the roles it allows: session checked against
 * the database, role, Origin on mutations, and no internal error ever reaching the client.
 */
export function withStaff<P extends Params = Record<string, never>>(
  roles: readonly Role[],
  handler: (request: NextRequest, ctx: StaffContext<P>) => Promise<Response>,
) {
  return async function guarded(request: NextRequest, route: { params: Promise<P> }): Promise<Response> {
    try {
      const staff = await currentStaff();
      if (!staff) return fail(401, "You are not signed in. Sign in and try again.");
      if (!roles.includes(staff.role)) {
        return fail(403, `Your role (${staff.role}) may not do this. Ask an admin if you need access.`);
      }
      if (MUTATING.has(request.method) && !isSameOrigin(request, getConfig().appUrl)) {
        return fail(403, "This request did not come from the dashboard (Origin mismatch), so it was refused.");
      }
      return await handler(request, { staff, params: await route.params, db: await getDb(), ip: clientIp(request.headers) });
    } catch (error) {
      console.error(`[api] ${request.method} ${request.nextUrl.pathname} failed: ${safeErrorSummary(error)}`);
      return fail(500, "Something went wrong on our side; nothing was changed. Try again, and if it keeps happening, check the server log.");
    }
  };
}

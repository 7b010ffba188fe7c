import "server-only";

import type { NextRequest } from "next/server";

import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";
import { clientIp } from "@/lib/http/client-ip";
import { badRequest, errorResponse, forbidden, notFound, unauthorized } from "@/lib/http/api-error";
import { isSameOrigin } from "@/lib/http/origin";
import { malformedParam } from "@/lib/http/route-params";

import { staffActor, type StaffActor } from "@/lib/actors/actor";
import { authorize, type Permission } from "@/lib/actors/permissions";

import { currentStaff, type CurrentStaff } from "./session";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface StaffContext<P> {
  staff: CurrentStaff;
  /** The person as the use cases take them (lib/actors/actor.ts), with this request's address. */
  actor: StaffActor;
  params: P;
  db: Db;
  ip: string;
}

type Params = Record<string, string | string[] | undefined>;

export interface GuardOptions {
  /**
   * Open to a person still setting up their account (their own account routes only): two-step sign-in the team
   * requires, or their own password in place of the one an admin chose.
   */
  duringEnrolment?: boolean;
}

/**
 * Every staff route handler is wrapped by this, naming the permission it needs (lib/actors/permissions.ts decides
 * which roles hold it, docs/architecture.md "Actors"): session checked against the database, permission, two-step
 * set-up when the team requires it, Origin on mutations, path parameters
 * of their kind (lib/http/route-params.ts: a malformed id is "not found" before any query). Whatever the checks or the handler throw becomes the answer
 * here, by errorResponse: an ApiError's own, a ServiceError's 502/503/504, and for anything else a 500
 * with no internal error reaching the client.
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function safeDecode(search: string): string {
  try {
    return decodeURIComponent(search.replace(/\+/g, " "));
  } catch {
    // A malformed escape decodes nothing; searchParams reads it as written.
    return "";
  }
}

export function withStaff<P extends Params = Record<string, never>>(
  permission: Permission,
  handler: (request: NextRequest, ctx: StaffContext<P>) => Promise<Response>,
  options: GuardOptions = {},
) {
  return async function guarded(request: NextRequest, route: { params: Promise<P> }): Promise<Response> {
    try {
      const staff = await currentStaff();
      if (!staff) throw unauthorized("You are not signed in. Sign in and try again.");
      if (staff.mustChangePassword && !options.duringEnrolment) {
        throw forbidden("Choose your own password first: an admin set the one you signed in with. Change it on your account page (/account).");
      }
      if (staff.mustEnrol && !options.duringEnrolment) {
        throw forbidden("Your team requires two-step sign-in. Set it up on your account page (/account) first.");
      }
      const ip = clientIp(request.headers);
      const actor = staffActor(staff, ip);
      authorize(actor, permission);
      if (MUTATING.has(request.method) && !isSameOrigin(request, getConfig().appUrl)) {
        throw forbidden("This request did not come from the dashboard (Origin mismatch), so it was refused.");
      }
      // A control character (a NUL byte, say) in the query is no search anyone typed, and the database refuses it.
      if (CONTROL_CHARACTER.test(request.nextUrl.search) || CONTROL_CHARACTER.test(safeDecode(request.nextUrl.search))) {
        throw badRequest("The address holds a control character (such as a NUL byte), so it was refused. Remove it and try again.");
      }
      const params = await route.params;
      if (malformedParam(params)) throw notFound("Nothing here has that id: it is not one the dashboard makes. Check the link, or find the item in its list.");
      return await handler(request, { staff, actor, params, db: await getDb(), ip });
    } catch (error) {
      return errorResponse(error, `${request.method} ${request.nextUrl.pathname}`);
    }
  };
}

import "server-only";

import type { NextRequest } from "next/server";

import type { PublicActor } from "@/lib/actors/actor";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";

import { errorResponse, forbidden, notFound } from "./api-error";
import { clientIp } from "./client-ip";
import { isSameOrigin } from "./origin";
import { malformedParam } from "./route-params";

// The public door (docs/architecture.md "Pay pages"): routes anyone may call, with no session. The actor is `public`
// with the caller's address (as TRUST_PROXY allows); a POST must come from the pay page itself (Origin), and whatever
// the handler throws becomes an envelope with a code, never a stack.

export interface PublicContext<P> {
  actor: PublicActor;
  db: Db;
  params: P;
}

export function withPublic<P extends Record<string, string> = Record<string, never>>(
  handler: (request: NextRequest, ctx: PublicContext<P>) => Promise<Response>,
) {
  return async function open(request: NextRequest, route: { params: Promise<P> }): Promise<Response> {
    try {
      if (request.method === "POST" && !isSameOrigin(request, getConfig().appUrl)) {
        throw forbidden("This request did not come from the pay page (Origin mismatch), so it was refused.");
      }
      const params = await route.params;
      if (malformedParam(params)) throw notFound("Nothing is at this address. Check the link you were given.");
      const actor: PublicActor = { kind: "public", ip: clientIp(request.headers) };
      return await handler(request, { actor, db: await getDb(), params });
    } catch (error) {
      // A status link's token is the payer's: the log names the route, not the link.
      return errorResponse(error, `${request.method} ${request.nextUrl.pathname.replace(/\/s\/[^/]+$/, "/s/…")}`);
    }
  };
}

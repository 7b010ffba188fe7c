import "server-only";

import { NextRequest } from "next/server";

import type { ApiKeyActor } from "@/lib/actors/actor";
import { authorize, permissionForScope } from "@/lib/actors/permissions";
import type { V1Operation } from "@/lib/api/v1/operation";
import { getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";
import { ApiError, badRequest, conflict, errorResponse, notFound, tooLarge, unprocessable } from "@/lib/http/api-error";
import { hashedAddress } from "@/lib/http/address-bucket";
import { clientIp } from "@/lib/http/client-ip";
import { readCapped } from "@/lib/http/read-capped";
import { malformedParam } from "@/lib/http/route-params";

import { authenticateKey } from "./authenticate";
import { claimIdempotencyKey, requestHash, settleIdempotencyKey } from "./idempotency";
import { rateLimitHeaders, spendKeyCall, spendRefusedCall, type RateState } from "./rate-limit";
import { noteUse } from "./store";

// Every /api/v1 handler is wrapped by this, naming its documented operation (docs/architecture.md "The API"): the key authenticated, its rate limit
// counted (RateLimit headers on every answer, 429 past it), the permission's scope checked, and on a POST the
// Idempotency-Key claimed, its answer kept and replayed. Whatever is thrown becomes the envelope here.

export interface ApiKeyContext<P> {
  actor: ApiKeyActor;
  params: P;
  db: Db;
  ip: string;
  /** The Idempotency-Key of a POST (the use cases that take a key of their own derive it from this). */
  idempotencyKey: string | null;
}

type Params = Record<string, string | string[] | undefined>;

export interface ApiKeyGuardOptions {
  /** The largest body taken (a campaign's rows need more than the default 64 KB). */
  maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 64 * 1024;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The header's value: a structured-field string ("abc") or the bare token most clients send. */
function idempotencyKeyOf(request: Request): string | null {
  const raw = request.headers.get("idempotency-key");
  if (raw === null) return null;
  const value = raw.trim().replace(/^"(.*)"$/, "$1");
  if (!KEY_RE.test(value)) throw badRequest("The Idempotency-Key header must be 1–255 visible ASCII characters (a UUID is a good choice).");
  return value;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export function withApiKey<P extends Params = Record<string, never>>(
  op: V1Operation,
  handler: (request: NextRequest, ctx: ApiKeyContext<P>) => Promise<Response>,
  options: ApiKeyGuardOptions = {},
) {
  const permission = permissionForScope(op.scope);
  return async function guarded(request: NextRequest, route: { params: Promise<P> }): Promise<Response> {
    let rate: RateState | null = null;
    const answer = (response: Response) => withHeaders(response, rate ? rateLimitHeaders(rate) : {});
    try {
      const db = await getDb();
      const ip = clientIp(request.headers);
      const { actor, row } = await authenticateKey(db, request.headers.get("authorization"), ip).catch(async (refusal: unknown) => {
        // A refused key is counted against its address, so its 401 carries RateLimit headers and guessing meets a 429.
        rate = await spendRefusedCall(db, hashedAddress(ip, "api-refused-key"));
        if (!rate.ok)
          throw new ApiError(429, `Too many calls from this address with a key that is not valid; try again in ${rate.resetSeconds} s.`, {
            retryAfterMs: rate.resetSeconds * 1000,
          });
        throw refusal;
      });
      const write = request.method !== "GET" && request.method !== "HEAD";
      rate = await spendKeyCall(db, row.id, write ? "write" : "read", write ? row.writesPerMinute : row.readsPerMinute);
      if (!rate.ok) {
        const kind = write ? "writes" : "reads";
        throw new ApiError(429, `This key has made its ${rate.limit} ${kind} for this minute; try again in ${rate.resetSeconds} s.`, {
          retryAfterMs: rate.resetSeconds * 1000,
        });
      }
      await noteUse(db, row.id, ip);
      authorize(actor, permission);
      const params = await route.params;
      if (malformedParam(params)) throw notFound("Nothing here has that id: check it, or find the item in its list.");
      if (request.method !== "POST") return answer(await handler(request, { actor, params, db, ip, idempotencyKey: null }));

      const key = idempotencyKeyOf(request);
      if (key === null)
        throw new ApiError(400, "Send an Idempotency-Key header with every POST (a UUID you make per operation), so a retry never does it twice.", {
          code: "idempotency_key_missing",
        });
      const body = await readCapped(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
      if (!body.ok) throw tooLarge(`The body is larger than ${options.maxBodyBytes ?? DEFAULT_MAX_BODY} bytes.`);
      const claim = await claimIdempotencyKey(db, row.id, key, requestHash(request.method, request.nextUrl.pathname, body.bytes));
      switch (claim.kind) {
        case "reused":
          throw unprocessable(
            "This Idempotency-Key was already used with a different body; use a new key for a new operation.",
            undefined,
            "idempotency_key_reused",
          );
        case "in_flight":
          throw conflict("A request with this Idempotency-Key is still being answered; try again in a moment.", undefined, "idempotency_key_in_flight");
        case "replay":
          return answer(
            new Response(claim.body, {
              status: claim.status,
              headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "Idempotent-Replayed": "true" },
            }),
          );
        case "new":
          break;
      }
      let response: Response;
      try {
        const replayable = new NextRequest(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(body.bytes) });
        response = await handler(replayable, { actor, params, db, ip, idempotencyKey: key });
      } catch (error) {
        response = errorResponse(error, `${request.method} ${request.nextUrl.pathname}`);
      }
      await settleIdempotencyKey(db, row.id, key, response.status, await response.clone().text());
      return answer(response);
    } catch (error) {
      return answer(errorResponse(error, `${request.method} ${request.nextUrl.pathname}`));
    }
  };
}

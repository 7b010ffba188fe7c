import { NextRequest } from "next/server";

import { handlers } from "@/auth";
import { currentStaff } from "@/lib/auth/session";
import { tooLarge, errorResponse } from "@/lib/http/api-error";
import { readCapped } from "@/lib/http/read-capped";

// next-auth's forms (sign-in, sign-out, CSRF) are a few hundred bytes; it would read any body whole.
const MAX_AUTH_BODY_BYTES = 8 * 1024;

/** next-auth's endpoints; its session read answers "no session" for an ended session row, like every other route. */
export async function GET(request: NextRequest): Promise<Response> {
  if (request.nextUrl.pathname.endsWith("/session") && !(await currentStaff())) {
    return Response.json(null, { headers: { "Cache-Control": "no-store" } });
  }
  return handlers.GET(request);
}

/** The body is read here, capped, before next-auth sees it: a chunked body stops at the cap and answers 413. */
export async function POST(request: NextRequest): Promise<Response> {
  const read = await readCapped(request, MAX_AUTH_BODY_BYTES);
  if (!read.ok) return errorResponse(tooLarge(`The body is larger than ${MAX_AUTH_BODY_BYTES} bytes; a sign-in form is far smaller.`), "POST /api/auth");
  const body = new Uint8Array(read.bytes);
  return handlers.POST(new NextRequest(request.url, { method: "POST", headers: request.headers, body }));
}

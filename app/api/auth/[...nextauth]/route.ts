import type { NextRequest } from "next/server";

import { handlers } from "@/auth";
import { currentStaff } from "@/lib/auth/session";

/** next-auth's endpoints; its session read answers "no session" for an ended session row, like every other route. */
export async function GET(request: NextRequest): Promise<Response> {
  if (request.nextUrl.pathname.endsWith("/session") && !(await currentStaff())) {
    return Response.json(null, { headers: { "Cache-Control": "no-store" } });
  }
  return handlers.GET(request);
}

export const { POST } = handlers;

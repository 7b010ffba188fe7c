import { openApiServed } from "@/lib/api/v1/document";
import { otherMethods } from "@/lib/http/other-methods";

// The API's reference, public: it documents the operations, holds no data. Serialised once, with an ETag: a client
// that has this version gets 304 and no body.

export function GET(request: Request): Response {
  const { json, etag } = openApiServed();
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", ETag: etag };
  const known = (request.headers.get("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (known.includes(etag) || known.includes("*")) return new Response(null, { status: 304, headers });
  return new Response(json, { headers });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

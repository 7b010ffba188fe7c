import { openApiJson } from "@/lib/api/v1/document";
import { otherMethods } from "@/lib/http/other-methods";

// The API's reference, public: it documents the operations, holds no data.
export function GET(): Response {
  return new Response(openApiJson(), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

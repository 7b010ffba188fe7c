import { openApiServed } from "@/lib/api/v1/document";
import { otherMethods } from "@/lib/http/other-methods";

// The API's reference, public: it documents the operations, holds no data. Served gzipped from the copy compressed
// once (Next.js leaves an answer that names its encoding alone), and 304 to a client that has this version.

function acceptsGzip(header: string | null): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

export function GET(request: Request): Response {
  const { json, gzip, etag } = openApiServed();
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=300",
    ETag: etag,
    Vary: "Accept-Encoding",
  };
  const known = (request.headers.get("if-none-match") ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (known.includes(etag) || known.includes("*")) return new Response(null, { status: 304, headers });
  if (acceptsGzip(request.headers.get("accept-encoding"))) return new Response(gzip, { headers: { ...headers, "Content-Encoding": "gzip" } });
  return new Response(json, { headers });
}

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

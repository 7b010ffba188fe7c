import { gunzipSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import { openApiJson } from "@/lib/api/v1/document";
import { GET } from "@/app/api/v1/openapi.json/route";

// The OpenAPI document is served gzipped from one compressed copy, with an ETag a client can revalidate against.

const URL = "http://localhost/api/v1/openapi.json";

describe("GET /api/v1/openapi.json", () => {
  it("answers the gzipped document to a client that takes gzip, whole once unzipped, and names the encoding", async () => {
    const answer = GET(new Request(URL, { headers: { "accept-encoding": "br, gzip;q=0.8" } }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("gzip");
    expect(answer.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await answer.arrayBuffer());
    expect(gunzipSync(body).toString("utf8")).toBe(openApiJson());
    expect(body.length).toBeLessThan(openApiJson().length / 4);
  });

  it("answers plain JSON to a client that refuses gzip or names no encoding", async () => {
    for (const accept of ["gzip;q=0", "identity", null]) {
      const answer = GET(new Request(URL, { headers: accept === null ? {} : { "accept-encoding": accept } }));
      expect(answer.headers.get("content-encoding")).toBeNull();
      expect(await answer.text()).toBe(openApiJson());
    }
  });

  it("answers 304 with no body to a client that has this version, and 200 to one that has another", async () => {
    const etag = GET(new Request(URL)).headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const fresh = GET(new Request(URL, { headers: { "if-none-match": `W/${etag ?? ""}` } }));
    expect(fresh.status).toBe(304);
    expect(await fresh.text()).toBe("");
    const stale = GET(new Request(URL, { headers: { "if-none-match": '"another"' } }));
    expect(stale.status).toBe(200);
  });
});

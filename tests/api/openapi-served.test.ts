import { describe, expect, it } from "vitest";

import { openApiJson } from "@/lib/api/v1/document";
import { GET } from "@/app/api/v1/openapi.json/route";

// The OpenAPI document is serialised once and served with an ETag a client can revalidate against (a 304, no body).

const URL = "http://localhost/api/v1/openapi.json";

describe("GET /api/v1/openapi.json", () => {
  it("answers the whole document as JSON, with its ETag", async () => {
    const answer = GET(new Request(URL));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(answer.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(await answer.text()).toBe(openApiJson());
  });

  it("answers 304 with no body to a client that has this version, and the document to one that has another", async () => {
    const etag = GET(new Request(URL)).headers.get("etag") ?? "";
    for (const known of [etag, `W/${etag}`, `"old", ${etag}`]) {
      const fresh = GET(new Request(URL, { headers: { "if-none-match": known } }));
      expect(fresh.status).toBe(304);
      expect(await fresh.text()).toBe("");
    }
    const stale = GET(new Request(URL, { headers: { "if-none-match": '"another"' } }));
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(openApiJson());
  });
});

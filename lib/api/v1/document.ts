import { createHash } from "node:crypto";

import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";

import { errorStatuses, type V1Operation } from "./operation";
import { V1_OPERATIONS } from "./operations";
import { envelope, errorEnvelope } from "./wire";

// The OpenAPI 3.1 document of /api/v1, generated from the operations' own schemas (docs/architecture.md "The API").
// Built once per process: it only changes with the code.

const ERROR_WORDS: Record<number, string> = {
  400: "The Idempotency-Key header is missing or malformed, or the body is not JSON",
  401: "No key, or a key that is not valid here (revoked, expired, the other mode's)",
  403: "The key lacks the scope this operation needs",
  404: "Nothing here has that id",
  409: "Conflicts with the current state, or the same Idempotency-Key is still being answered",
  413: "The body is larger than this operation takes",
  415: "The body is not sent as application/json",
  422: "A value is not valid (fieldErrors name it), or the Idempotency-Key was used with another body",
  429: "The key's rate limit for this minute is spent (Retry-After says when to try again)",
  500: "Something failed on our side; nothing was changed",
  502: "The service answered with an error",
  503: "The service, or the deployment's shared budget of service calls, has no room now (Retry-After)",
  504: "The service did not answer in time",
};

const rateHeaders = z.object({
  "RateLimit-Policy": z.string().meta({ description: 'The key\'s limit: "reads";q=600;w=60', example: '"reads";q=600;w=60' }),
  RateLimit: z.string().meta({ description: 'What is left of it and seconds until it resets: "reads";r=599;t=42', example: '"reads";r=599;t=42' }),
});

function toOperation(op: V1Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject["responses"] = {
    [String(op.success.status)]: {
      description: op.success.description,
      headers: rateHeaders,
      content: { "application/json": { schema: envelope(op.success.data) } },
    },
  };
  for (const status of errorStatuses(op)) {
    responses[String(status) as `4${string}`] = {
      description: ERROR_WORDS[status] ?? "An error",
      headers: rateHeaders,
      content: { "application/json": { schema: errorEnvelope } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: [{ apiKey: [op.scope] }],
    requestParams: {
      ...(op.params ? { path: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.method === "POST"
        ? {
            header: z.object({
              "Idempotency-Key": z.string().meta({ description: "A key you make per operation (a UUID); a retry with it answers the first answer for 24 h" }),
            }),
          }
        : {}),
    },
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    responses,
  };
}

function build(): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of V1_OPERATIONS) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase() as "get" | "post" | "patch" | "delete"] = toOperation(op);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Fundboard API",
      version: "1.0.0",
      description:
        "Ask for money by tag, read payments and the day book, and manage do-not-ask from your own systems. Every answer is the envelope {status, message, data}; an error's also carries a machine-readable `code`. Amounts are naira as exact decimal strings; times are UTC.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/api/v1" }],
    tags: [...new Set(V1_OPERATIONS.map((op) => op.tag))].map((name) => ({ name, description: `${name} operations` })),
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key (fb_test_… or fb_live_…) made by an admin on /developers/api-keys" },
      },
    },
    paths,
  });
}

let cached: { document: ReturnType<typeof createDocument>; json: string; etag: string } | null = null;

export function openApiDocument(): ReturnType<typeof createDocument> {
  cached ??= (() => {
    const document = build();
    const json = JSON.stringify(document);
    // Tagged once: a client that has this version revalidates for a 304 instead of 185 kB.
    return { document, json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
  })();
  return cached.document;
}

/** The document serialised once and its ETag (a hash of the JSON), for the route that serves it. */
export function openApiServed(): { json: string; etag: string } {
  openApiDocument();
  if (!cached) throw new Error("the OpenAPI document was not built");
  return cached;
}

/** The document as served: serialised once. */
export function openApiJson(): string {
  openApiDocument();
  return cached?.json ?? "{}";
}

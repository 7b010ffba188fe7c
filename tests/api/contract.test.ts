import { randomUUID } from "node:crypto";

import { z } from "zod";
import { describe, expect, it } from "vitest";

import { openApiDocument } from "@/lib/api/v1/document";
import { errorStatuses, type V1Operation } from "@/lib/api/v1/operation";
import { V1_OPERATIONS } from "@/lib/api/v1/operations";
import { createApiKey } from "@/lib/api-keys/manage";
import { parseCampaignCsv } from "@/lib/campaigns/parse";
import { createPlan } from "@/lib/plans/repo";
import { API_SCOPES, type ApiScope } from "@/lib/client/auth/permissions";
import { POST as webhook } from "@/app/api/webhooks/peer-transfer/route";
import { callRoute, inProcessApp, type Answer } from "@/tests/support/in-process-app";
import { payload } from "@/tests/support/payloads";
import { planFields } from "@/tests/support/plan-fields";
import { newTag } from "@/tests/support/request-deps";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { handlerFor, v1Routes, type V1Route } from "@/tests/support/v1-routes";

// The API's contract (docs/architecture.md "The API"): the v1 route files and the OpenAPI document name the same
// operations, and every documented operation, called with a key holding exactly its scope, answers what the document
// says — its success and its errors — checked against the document's own JSON Schemas (not the zod the handlers use).

const app = inProcessApp();

interface Fixtures {
  requestId: string;
  paymentUuid: string;
  tag: string;
  /** A draft the campaign actions take in the list's order: start, pause, resume, cancel. */
  campaignId: string;
  planId: string;
  /** An endpoint the webhook operations read, change and, last, delete. */
  endpointId: string;
}

/** How to call an operation successfully, and with a bad value where it takes any. */
interface Example {
  params?: (f: Fixtures) => Record<string, string>;
  query?: string;
  body?: (f: Fixtures) => unknown;
  /** A query or body the operation refuses with 422. */
  invalid?: { query?: string; body?: unknown };
}

const EXAMPLES: Record<string, Example> = {
  createRequest: { body: () => ({ tag: newTag("contract"), amount: 2500, description: "Contract dues" }), invalid: { body: { tag: "a", amount: "-1" } } },
  listRequests: { query: "?status=pending&pageSize=5", invalid: { query: "?pageSize=500" } },
  getRequest: { params: (f) => ({ requestId: f.requestId }) },
  getBalance: {},
  listPayments: { query: "?verified=unverified&from=2026-01-01", invalid: { query: "?from=2026-02-30" } },
  getPayment: { params: (f) => ({ uuid: f.paymentUuid }) },
  listPayers: { query: "?filter=paid", invalid: { query: "?filter=rich" } },
  getPayer: { params: (f) => ({ tag: f.tag }) },
  updatePayer: { params: (f) => ({ tag: f.tag }), body: () => ({ doNotAsk: false, note: "" }), invalid: { body: { doNotAsk: "maybe" } } },
  listEvents: { query: "?type=request.created", invalid: { query: "?after=evt_nope" } },
  createCampaign: {
    body: () => ({
      name: "Contract round",
      rows: [
        { tag: newTag("row"), amount: "100.00", description: "Dues" },
        { tag: "x", amount: -1, description: "" },
      ],
    }),
    invalid: { body: { name: "", rows: [] } },
  },
  listCampaigns: { query: "?pageSize=5", invalid: { query: "?pageSize=0" } },
  getCampaign: { params: (f) => ({ id: f.campaignId }) },
  listCampaignRows: { params: (f) => ({ id: f.campaignId }), query: "?status=queued", invalid: { query: "?status=nope" } },
  startCampaign: { params: (f) => ({ id: f.campaignId }) },
  pauseCampaign: { params: (f) => ({ id: f.campaignId }) },
  resumeCampaign: { params: (f) => ({ id: f.campaignId }) },
  cancelCampaign: { params: (f) => ({ id: f.campaignId }) },
  listPlans: { query: "?pageSize=5", invalid: { query: "?page=0" } },
  getPlanBoard: { params: (f) => ({ id: f.planId }), query: "?periods=3&owing=false", invalid: { query: "?owing=1" } },
  getDailyReport: { query: "?from=2026-11-01&to=2026-11-02", invalid: { query: "?to=2026-13-01" } },
  listWebhookEndpoints: {},
  createWebhookEndpoint: { body: () => ({ url: "https://erp.example.com/hooks" }), invalid: { body: { url: "ftp://x" } } },
  getWebhookEndpoint: { params: (f) => ({ id: f.endpointId }) },
  updateWebhookEndpoint: { params: (f) => ({ id: f.endpointId }), body: () => ({ enabled: false }), invalid: { body: { enabled: "no" } } },
  deleteWebhookEndpoint: { params: (f) => ({ id: f.endpointId }) },
};

type Doc = {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
};
const doc = openApiDocument() as unknown as Doc;

function deref(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(deref);
  if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (typeof o.$ref === "string") return deref(doc.components.schemas[o.$ref.replace("#/components/schemas/", "")]);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, deref(v)]));
  }
  return node;
}

/** The answer's status is documented for the operation, and its body fits that status's documented schema. */
function expectDocumented(op: V1Operation, answer: Answer): void {
  const documented = doc.paths[op.path]?.[op.method.toLowerCase()]?.responses ?? {};
  expect(Object.keys(documented), `${op.operationId} answered ${answer.status}: ${answer.json.message}`).toContain(String(answer.status));
  const schema = documented[String(answer.status)]?.content?.["application/json"]?.schema;
  const parsed = z.fromJSONSchema(deref(schema) as Parameters<typeof z.fromJSONSchema>[0]).safeParse(answer.json);
  expect(parsed.success ? null : `${op.operationId} ${answer.status}: ${parsed.error.message}`).toBeNull();
}

async function keyWith(scopes: ApiScope[]): Promise<string> {
  const admin = await app.person("admin");
  return (
    await createApiKey(await app.db(), admin, {
      name: `contract-${randomUUID().slice(0, 6)}`,
      scopes,
      expiresInDays: 30,
      readsPerMinute: 600,
      writesPerMinute: 60,
    })
  ).key;
}

async function fixtures(routes: V1Route[]): Promise<Fixtures> {
  const key = await keyWith(["requests:write"]);
  const tag = newTag("contract");
  const created = await callRoute(
    handlerFor(
      routes,
      V1_OPERATIONS.find((o) => o.operationId === "createRequest")!,
    ),
    "/api/v1/requests",
    {
      method: "POST",
      key,
      idempotencyKey: randomUUID(),
      body: { tag, amount: "1500.00", description: "Contract fixture" },
    },
  );
  const requestId = (created.json.data as { requestId: string }).requestId;
  const paid = payload({ meta: { peer_tag: tag, name: "Contract Payer" }, customer: { ...payload().customer, tag } });
  const body = JSON.stringify(paid);
  const delivered = await webhook(
    new Request("http://localhost/api/webhooks/peer-transfer", { method: "POST", body, headers: signedHeaders(body, app.sandbox.apiKey) }),
  );
  expect(delivered.status).toBe(200);

  const writer = await keyWith(["campaigns:write", "webhooks:write"]);
  const op = (id: string) => V1_OPERATIONS.find((o) => o.operationId === id) as V1Operation;
  const draft = await callRoute(handlerFor(routes, op("createCampaign")), "/api/v1/campaigns", {
    method: "POST",
    key: writer,
    idempotencyKey: randomUUID(),
    body: { name: "Contract fixture", rows: [{ tag: newTag("draft"), amount: "250.00", description: "Dues" }] },
  });
  expect(draft.status).toBe(201);
  const endpoint = await callRoute(handlerFor(routes, op("createWebhookEndpoint")), "/api/v1/webhook-endpoints", {
    method: "POST",
    key: writer,
    idempotencyKey: randomUUID(),
    body: { url: "https://books.example.com/hooks" },
  });
  expect(endpoint.status).toBe(201);
  const admin = await app.person("admin");
  const rows = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${newTag("plan")},100,\n`));
  if (!rows.ok) throw new Error(rows.message);
  const planId = await createPlan(await app.db(), planFields(), "Africa/Lagos", rows.rows, admin.id);
  return {
    requestId,
    paymentUuid: paid.uuid,
    tag,
    campaignId: (draft.json.data as { id: string }).id,
    planId,
    endpointId: (endpoint.json.data as { id: string }).id,
  };
}

function call(op: V1Operation, handler: V1Route["handler"], f: Fixtures, key: string, example: Example, bad = false): Promise<Answer> {
  const params = example.params?.(f) ?? {};
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const query = bad ? (example.invalid?.query ?? "") : (example.query ?? "");
  const body = bad && example.invalid?.body !== undefined ? example.invalid.body : example.body?.(f);
  return callRoute(handler, `/api/v1${path}${query}`, {
    method: op.method,
    key,
    params,
    body,
    idempotencyKey: op.method === "POST" ? randomUUID() : undefined,
  });
}

describe("the API's contract", () => {
  it("the v1 route files serve exactly the documented operations", async () => {
    const routes = await v1Routes();
    const served = routes.map((r) => `${r.method} ${r.path}`).sort();
    const documented = V1_OPERATIONS.map((op) => `${op.method} ${op.path}`).sort();
    expect(served).toEqual(documented);
    const inDocument = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(inDocument.sort()).toEqual(documented);
  });

  it("every documented operation has an example here", () => {
    expect(V1_OPERATIONS.map((op) => op.operationId).filter((id) => !(id in EXAMPLES))).toEqual([]);
  });

  it("every operation, called with exactly its scope, answers its documented success; with another scope, its documented 403", async () => {
    const routes = await v1Routes();
    const f = await fixtures(routes);
    for (const op of V1_OPERATIONS) {
      const example = EXAMPLES[op.operationId] ?? {};
      const handler = handlerFor(routes, op);
      const answer = await call(op, handler, f, await keyWith([op.scope]), example);
      expect({ op: op.operationId, status: answer.status, message: answer.json.message }).toMatchObject({ op: op.operationId, status: op.success.status });
      expectDocumented(op, answer);
      const other = API_SCOPES.find((s) => s !== op.scope) ?? "events:read";
      const refused = await call(op, handler, f, await keyWith([other]), example);
      expect([op.operationId, refused.status]).toEqual([op.operationId, 403]);
      expectDocumented(op, refused);
    }
  });

  it("every operation that takes values answers a bad one with its documented 422 and field errors", async () => {
    const routes = await v1Routes();
    const f = await fixtures(routes);
    const withValues = V1_OPERATIONS.filter((op) => op.query || op.body);
    expect(withValues.every((op) => EXAMPLES[op.operationId]?.invalid)).toBe(true);
    for (const op of withValues) {
      const answer = await call(op, handlerFor(routes, op), f, await keyWith([op.scope]), EXAMPLES[op.operationId] ?? {}, true);
      expect([op.operationId, answer.status, answer.json.code]).toEqual([op.operationId, 422, "validation_failed"]);
      expect(errorStatuses(op)).toContain(422);
      expectDocumented(op, answer);
    }
  });
});

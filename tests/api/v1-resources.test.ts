import { randomUUID } from "node:crypto";

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { GET as getCampaignRoute } from "@/app/api/v1/campaigns/[id]/route";
import { POST as cancelRoute } from "@/app/api/v1/campaigns/[id]/cancel/route";
import { POST as pauseRoute } from "@/app/api/v1/campaigns/[id]/pause/route";
import { POST as resumeRoute } from "@/app/api/v1/campaigns/[id]/resume/route";
import { GET as rowsRoute } from "@/app/api/v1/campaigns/[id]/rows/route";
import { POST as startRoute } from "@/app/api/v1/campaigns/[id]/start/route";
import { GET as listCampaignsRoute, POST as createCampaignRoute } from "@/app/api/v1/campaigns/route";
import { GET as boardRoute } from "@/app/api/v1/plans/[id]/board/route";
import { GET as listPlansRoute } from "@/app/api/v1/plans/route";
import { GET as dailyRoute } from "@/app/api/v1/reports/daily/route";
import { DELETE as deleteEndpointRoute, GET as getEndpointRoute, PATCH as patchEndpointRoute } from "@/app/api/v1/webhook-endpoints/[id]/route";
import { GET as listEndpointsRoute, POST as createEndpointRoute } from "@/app/api/v1/webhook-endpoints/route";
import type { StaffActor } from "@/lib/actors/actor";
import { createApiKey } from "@/lib/api-keys/manage";
import { checkRow } from "@/lib/campaigns/parse";
import type { CampaignRowView, CampaignView } from "@/lib/client/campaigns/view";
import type { Page } from "@/lib/client/http/page-param";
import type { EndpointView } from "@/lib/client/outbound/schemas";
import type { BoardView, PlanListItem } from "@/lib/client/plans/view";
import type { DayBook } from "@/lib/client/reports/daily";
import { queryRows, type Db } from "@/lib/db/client";
import { createPlan } from "@/lib/plans/repo";
import { callRoute, inProcessApp, type Answer, type CallInit, type RouteHandler } from "@/tests/support/in-process-app";
import { planFields } from "@/tests/support/plan-fields";

// The campaign, plan, report and webhook-endpoint operations of /api/v1 (docs/architecture.md "The API"), called
// in-process through their route handlers with real keys over an embedded database: each answers what the dashboard's
// use case answers, refuses what it refuses, and is refused to a key without its scope. Nothing here calls the
// service (a campaign's send job is not running), so the deployment runs in sandbox mode with no sandbox.

const app = inProcessApp({}, { sandbox: false });

let db: Db;
let admin: StaffActor;
/** Every scope. */
let full: string;
/** Every :read scope, nothing else. */
let readOnly: string;
/** requests:read alone. */
let narrow: string;

/** A call to /api/v1 as an integrator makes it: with the full key unless told, and a fresh Idempotency-Key on each POST. */
function call<T = unknown>(handler: RouteHandler, method: string, pathAndQuery: string, init: Omit<CallInit, "method"> = {}): Promise<Answer<T>> {
  const idempotencyKey = init.idempotencyKey ?? (method === "POST" ? randomUUID() : undefined);
  return callRoute<T>(handler, `/api/v1${pathAndQuery}`, { ...init, method, key: init.key ?? full, idempotencyKey });
}

/** The 422's field errors: the names the answer says are wrong. */
const fieldsOf = (answer: Answer<unknown>) => Object.keys((answer.json.data as { fieldErrors?: Record<string, unknown> }).fieldErrors ?? {});

const tag = (label: string) => `${label}_${randomUUID().slice(0, 8)}`;
const rows = (...tags: string[]) => tags.map((t, i) => ({ tag: t, amount: `${(i + 1) * 100}`, description: "Estate dues" }));
const missingId = () => randomUUID();

async function newCampaign(name: string, tags: string[], start = false): Promise<CampaignView> {
  const made = await call<CampaignView>(createCampaignRoute, "POST", "/campaigns", { body: { name, rows: rows(...tags), start } });
  expect(made.status, made.json.message).toBe(201);
  return made.json.data;
}

beforeAll(async () => {
  db = await app.db();
  admin = await app.person("admin", "Ada Admin");
  const limits = { expiresInDays: 30, readsPerMinute: 10_000, writesPerMinute: 1_000 };
  full = (await createApiKey(db, admin, { name: "erp", scopes: "everything", ...limits })).key;
  readOnly = (await createApiKey(db, admin, { name: "reporting", scopes: "read_only", ...limits })).key;
  narrow = (await createApiKey(db, admin, { name: "narrow", scopes: ["requests:read"], ...limits })).key;
});

describe("POST /api/v1/campaigns", () => {
  it("drafts a campaign of the rows under the key, shows them in order, and audits it as the key", async () => {
    const tags = [tag("ada"), tag("bola"), tag("chidi")];
    const made = await newCampaign("November dues", tags);
    expect(made).toMatchObject({ name: "November dues", status: "draft", counts: { total: 3, invalid: 0, queued: 3 }, amounts: { asked: "600.00" } });
    expect(made.sentBy).toBe("Ada Admin");

    const listed = await call<Page<CampaignRowView>>(rowsRoute, "GET", `/campaigns/${made.id}/rows`, { params: { id: made.id } });
    expect(listed.status).toBe(200);
    expect(listed.json.data.total).toBe(3);
    expect(listed.json.data.items.map((r) => [r.row, r.tag, r.amount, r.status])).toEqual([
      [1, tags[0], "100.00", "queued"],
      [2, tags[1], "200.00", "queued"],
      [3, tags[2], "300.00", "queued"],
    ]);

    const audit = await queryRows<{ actor_id: string | null; actor_email: string | null; detail: unknown }>(
      db,
      sql`select actor_id, actor_email, detail from audit_log where action = 'campaign.uploaded' and target = ${made.id}`,
    );
    expect(audit).toEqual([{ actor_id: null, actor_email: "api_key:erp", detail: { name: "November dues", rows: 3, invalid: 0 } }]);
  });

  it("checks each row as an uploaded file's: a bad one is kept as invalid with the file's reason", async () => {
    const good = tag("good");
    const body = {
      name: "Mixed",
      rows: [
        { tag: good, amount: 2500.5, description: "Dues" },
        { tag: "x", amount: "-5", description: "Dues" },
      ],
    };
    const made = await call<CampaignView>(createCampaignRoute, "POST", "/campaigns", { body });
    expect(made.status).toBe(201);
    expect(made.json.data.counts).toMatchObject({ total: 2, invalid: 1, queued: 1 });
    const invalid = await call<Page<CampaignRowView>>(rowsRoute, "GET", `/campaigns/${made.json.data.id}/rows?status=invalid`, {
      params: { id: made.json.data.id },
    });
    expect(invalid.json.data.items.map((r) => r.error)).toEqual([checkRow(2, "x", "-5", "Dues").error]);
  });

  it("starts the campaign at once with start: true", async () => {
    const made = await newCampaign("Started at once", [tag("sam")], true);
    expect(made.status).toBe("sending");
    expect(made.startedAt).not.toBeNull();
  });

  it("answers a repeat with the same Idempotency-Key with the first answer, making nothing more", async () => {
    const idempotencyKey = randomUUID();
    const body = { name: "Once", rows: rows(tag("once")) };
    const first = await call<CampaignView>(createCampaignRoute, "POST", "/campaigns", { body, idempotencyKey });
    const again = await call<CampaignView>(createCampaignRoute, "POST", "/campaigns", { body, idempotencyKey });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data.id).toBe(first.json.data.id);
  });

  it("refuses an empty list of rows or an unknown field with a 422 naming it", async () => {
    const empty = await call(createCampaignRoute, "POST", "/campaigns", { body: { name: "Empty", rows: [] } });
    expect(empty.status).toBe(422);
    expect(fieldsOf(empty)).toEqual(["rows"]);
    const extra = await call(createCampaignRoute, "POST", "/campaigns", { body: { name: "Extra", rows: [{ ...rows("ab")[0], reference: "r" }] } });
    expect(extra.status).toBe(422);
  });

  it("takes 10,000 rows in one body, and refuses one more", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ tag: `member_${i}`, amount: "1000.00", description: "Estate dues for November" }));
    const made = await call<CampaignView>(createCampaignRoute, "POST", "/campaigns", { body: { name: "Large", rows: many } });
    expect(made.status, made.json.message).toBe(201);
    expect(made.json.data.counts.total).toBe(10_000);
    const more = await call(createCampaignRoute, "POST", "/campaigns", { body: { name: "Too large", rows: [...many, many[0]] } });
    expect(more.status).toBe(422);
    expect(fieldsOf(more)).toEqual(["rows"]);
  });

  it("is refused to a key without campaigns:write, drafting nothing", async () => {
    const before = await call<Page<CampaignView>>(listCampaignsRoute, "GET", "/campaigns");
    const refused = await call(createCampaignRoute, "POST", "/campaigns", { key: readOnly, body: { name: "No", rows: rows(tag("no")) } });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain("campaigns:write");
    expect((await call<Page<CampaignView>>(listCampaignsRoute, "GET", "/campaigns")).json.data.total).toBe(before.json.data.total);
  });
});

describe("GET /api/v1/campaigns and /campaigns/{id}", () => {
  it("lists campaigns newest first, a page of pageSize", async () => {
    const older = await newCampaign("Older", [tag("o")]);
    const newer = await newCampaign("Newer", [tag("n")]);
    const listed = await call<Page<CampaignView>>(listCampaignsRoute, "GET", "/campaigns?pageSize=2", { key: readOnly });
    expect(listed.status).toBe(200);
    expect(listed.json.data).toMatchObject({ page: 1, pageSize: 2 });
    expect(listed.json.data.items.map((c) => c.id)).toEqual([newer.id, older.id]);
  });

  it("refuses a pageSize over 100 with a 422 naming it", async () => {
    const refused = await call(listCampaignsRoute, "GET", "/campaigns?pageSize=101");
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused)).toEqual(["pageSize"]);
  });

  it("reads one campaign with its family, and answers 404 for an unknown one", async () => {
    const made = await newCampaign("One", [tag("one")]);
    const one = await call<CampaignView>(getCampaignRoute, "GET", `/campaigns/${made.id}`, { params: { id: made.id } });
    expect(one.status).toBe(200);
    expect(one.json.data).toMatchObject({ id: made.id, name: "One", family: { rounds: [{ id: made.id, round: 1 }] } });
    const missing = missingId();
    expect((await call(getCampaignRoute, "GET", `/campaigns/${missing}`, { params: { id: missing } })).status).toBe(404);
  });

  it("is refused to a key without campaigns:read", async () => {
    expect((await call(listCampaignsRoute, "GET", "/campaigns", { key: narrow })).status).toBe(403);
  });
});

describe("GET /api/v1/campaigns/{id}/rows", () => {
  it("refuses an unknown status with a 422 naming it, and an unknown campaign with a 404", async () => {
    const made = await newCampaign("Rows", [tag("r")]);
    const bad = await call(rowsRoute, "GET", `/campaigns/${made.id}/rows?status=paid`, { params: { id: made.id } });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad)).toEqual(["status"]);
    const missing = missingId();
    expect((await call(rowsRoute, "GET", `/campaigns/${missing}/rows`, { params: { id: missing } })).status).toBe(404);
  });

  it("pages the rows by pageSize", async () => {
    const made = await newCampaign("Paged rows", [tag("a"), tag("b"), tag("c")]);
    const second = await call<Page<CampaignRowView>>(rowsRoute, "GET", `/campaigns/${made.id}/rows?page=2&pageSize=2`, { params: { id: made.id } });
    expect(second.json.data).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(second.json.data.items.map((r) => r.row)).toEqual([3]);
  });
});

describe("POST /api/v1/campaigns/{id}/start|pause|resume|cancel", () => {
  it("moves a campaign as the campaign page's buttons do, audited as the key", async () => {
    const made = await newCampaign("Moves", [tag("m")]);
    const params = { id: made.id };
    const moves: [RouteHandler, string, string][] = [
      [startRoute, "start", "sending"],
      [pauseRoute, "pause", "paused"],
      [resumeRoute, "resume", "sending"],
      [cancelRoute, "cancel", "cancelled"],
    ];
    for (const [handler, name, status] of moves) {
      const moved = await call<CampaignView>(handler, "POST", `/campaigns/${made.id}/${name}`, { params });
      expect(moved.status, `${name}: ${moved.json.message}`).toBe(200);
      expect(moved.json.data.status).toBe(status);
    }
    const audit = await queryRows<{ action: string; actor_email: string }>(
      db,
      sql`select action, actor_email from audit_log where target = ${made.id} and action <> 'campaign.uploaded' order by id`,
    );
    expect(audit).toEqual(["started", "paused", "resumed", "cancelled"].map((a) => ({ action: `campaign.${a}`, actor_email: "api_key:erp" })));
  });

  it("refuses a move the status does not allow with a 409 naming it, and an unknown campaign with a 404", async () => {
    const made = await newCampaign("Refused", [tag("rf")]);
    const refused = await call(pauseRoute, "POST", `/campaigns/${made.id}/pause`, { params: { id: made.id } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "conflict", data: { status: "draft" } });
    const missing = missingId();
    expect((await call(startRoute, "POST", `/campaigns/${missing}/start`, { params: { id: missing } })).status).toBe(404);
  });

  it("is refused to a key without campaigns:write, leaving the campaign as it was", async () => {
    const made = await newCampaign("Kept", [tag("k")]);
    expect((await call(startRoute, "POST", `/campaigns/${made.id}/start`, { key: readOnly, params: { id: made.id } })).status).toBe(403);
    const after = await call<CampaignView>(getCampaignRoute, "GET", `/campaigns/${made.id}`, { params: { id: made.id } });
    expect(after.json.data.status).toBe("draft");
  });
});

describe("GET /api/v1/plans and /plans/{id}/board", () => {
  let planId: string;
  const members = [tag("pa"), tag("pb")];

  beforeAll(async () => {
    const roster = members.map((t, i) => checkRow(i + 1, t, "5000", "{period} estate dues"));
    planId = await createPlan(db, planFields({ name: "Estate dues via API" }), "Africa/Lagos", roster, admin.id);
  });

  it("lists plans with their members", async () => {
    const listed = await call<Page<PlanListItem>>(listPlansRoute, "GET", "/plans?pageSize=5", { key: readOnly });
    expect(listed.status).toBe(200);
    expect(listed.json.data.pageSize).toBe(5);
    expect(listed.json.data.items.find((p) => p.id === planId)).toMatchObject({ name: "Estate dues via API", status: "active", members: 2 });
  });

  it("refuses a pageSize of 0 with a 422 naming it", async () => {
    const refused = await call(listPlansRoute, "GET", "/plans?pageSize=0");
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused)).toEqual(["pageSize"]);
  });

  it("reads the dues board: the periods asked for, a page of members", async () => {
    const board = await call<BoardView>(boardRoute, "GET", `/plans/${planId}/board?periods=3&pageSize=1`, { key: readOnly, params: { id: planId } });
    expect(board.status).toBe(200);
    expect(board.json.data.periods.length).toBeLessThanOrEqual(3);
    expect(board.json.data).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(board.json.data.members.map((m) => m.tag)).toEqual([members[0]]);
  });

  it("refuses a bad owing or periods with a 422 naming it, and an unknown plan with a 404", async () => {
    const owing = await call(boardRoute, "GET", `/plans/${planId}/board?owing=yes`, { params: { id: planId } });
    expect(owing.status).toBe(422);
    expect(fieldsOf(owing)).toEqual(["owing"]);
    const periods = await call(boardRoute, "GET", `/plans/${planId}/board?periods=25`, { params: { id: planId } });
    expect(fieldsOf(periods)).toEqual(["periods"]);
    const missing = missingId();
    expect((await call(boardRoute, "GET", `/plans/${missing}/board`, { params: { id: missing } })).status).toBe(404);
  });

  it("is refused to a key without plans:read", async () => {
    expect((await call(listPlansRoute, "GET", "/plans", { key: narrow })).status).toBe(403);
    expect((await call(boardRoute, "GET", `/plans/${planId}/board`, { key: narrow, params: { id: planId } })).status).toBe(403);
  });
});

describe("GET /api/v1/reports/daily", () => {
  it("answers the day book of the days asked for", async () => {
    const book = await call<DayBook>(dailyRoute, "GET", "/reports/daily?from=2026-11-01&to=2026-11-03", { key: readOnly });
    expect(book.status).toBe(200);
    expect(book.json.data).toMatchObject({ from: "2026-11-01", to: "2026-11-03", total: { date: "total" } });
    expect(book.json.data.days.map((d) => d.date)).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
  });

  it("refuses a day that is not one, or a last day before the first, with a 422 naming it", async () => {
    const notADay = await call(dailyRoute, "GET", "/reports/daily?from=2026-02-30");
    expect(notADay.status).toBe(422);
    expect(fieldsOf(notADay)).toEqual(["from"]);
    const backwards = await call(dailyRoute, "GET", "/reports/daily?from=2026-11-03&to=2026-11-01");
    expect(backwards.status).toBe(422);
    expect(fieldsOf(backwards)).toEqual(["to"]);
  });

  it("is refused to a key without reports:read", async () => {
    expect((await call(dailyRoute, "GET", "/reports/daily", { key: narrow })).status).toBe(403);
  });
});

describe("/api/v1/webhook-endpoints", () => {
  const url = "https://erp.example.com/fundboard-hooks";

  async function newEndpoint(description: string): Promise<EndpointView & { secret: string }> {
    const made = await call<EndpointView & { secret: string }>(createEndpointRoute, "POST", "/webhook-endpoints", { body: { url, description } });
    expect(made.status, made.json.message).toBe(201);
    return made.json.data;
  }

  it("adds an endpoint, answering its secret once, and lists and reads it without it", async () => {
    const made = await newEndpoint("ERP");
    expect(made.secret).toMatch(/^whsec_/);
    expect(made).toMatchObject({ url, description: "ERP", eventTypes: "all", enabled: true });
    const listed = await call<Page<EndpointView>>(listEndpointsRoute, "GET", "/webhook-endpoints", { key: readOnly });
    expect(listed.status).toBe(200);
    expect(listed.json.data.items.map((e) => e.id)).toContain(made.id);
    const one = await call<EndpointView>(getEndpointRoute, "GET", `/webhook-endpoints/${made.id}`, { key: readOnly, params: { id: made.id } });
    expect(one.status).toBe(200);
    expect(one.json.data).not.toHaveProperty("secret");
    expect(one.json.data.secretHint).toBe(made.secretHint);
    const audit = await queryRows<{ actor_email: string }>(
      db,
      sql`select actor_email from audit_log where action = 'webhook_endpoint.created' and target = ${made.id}`,
    );
    expect(audit).toEqual([{ actor_email: "api_key:erp" }]);
  });

  it("refuses a URL that is not one with a 422 naming url", async () => {
    const refused = await call(createEndpointRoute, "POST", "/webhook-endpoints", { body: { url: "ftp://erp.example.com/hooks" } });
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused)).toEqual(["url"]);
  });

  it("changes an endpoint, refusing a bad URL with a 422 naming url and an unknown one with a 404", async () => {
    const made = await newEndpoint("Before");
    const params = { id: made.id };
    const changed = await call<EndpointView>(patchEndpointRoute, "PATCH", `/webhook-endpoints/${made.id}`, {
      params,
      body: { description: "After", eventTypes: ["payment.received"] },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.data).toMatchObject({ description: "After", eventTypes: ["payment.received"] });
    const bad = await call(patchEndpointRoute, "PATCH", `/webhook-endpoints/${made.id}`, { params, body: { url: "not a url" } });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad)).toEqual(["url"]);
    const missing = missingId();
    expect((await call(patchEndpointRoute, "PATCH", `/webhook-endpoints/${missing}`, { params: { id: missing }, body: { enabled: false } })).status).toBe(404);
  });

  it("deletes an endpoint: it is gone, and a second delete is a 404", async () => {
    const made = await newEndpoint("Gone");
    const params = { id: made.id };
    const deleted = await call(deleteEndpointRoute, "DELETE", `/webhook-endpoints/${made.id}`, { params });
    expect(deleted.status).toBe(200);
    expect((await call(getEndpointRoute, "GET", `/webhook-endpoints/${made.id}`, { params })).status).toBe(404);
    expect((await call(deleteEndpointRoute, "DELETE", `/webhook-endpoints/${made.id}`, { params })).status).toBe(404);
  });

  it("is refused to a key without webhooks:write (changes) or webhooks:read (reads)", async () => {
    const made = await newEndpoint("Guarded");
    const params = { id: made.id };
    expect((await call(createEndpointRoute, "POST", "/webhook-endpoints", { key: readOnly, body: { url } })).status).toBe(403);
    expect((await call(patchEndpointRoute, "PATCH", `/webhook-endpoints/${made.id}`, { key: readOnly, params, body: { enabled: false } })).status).toBe(403);
    expect((await call(deleteEndpointRoute, "DELETE", `/webhook-endpoints/${made.id}`, { key: readOnly, params })).status).toBe(403);
    expect((await call(listEndpointsRoute, "GET", "/webhook-endpoints", { key: narrow })).status).toBe(403);
    expect((await call(getEndpointRoute, "GET", `/webhook-endpoints/${made.id}`, { key: narrow, params })).status).toBe(403);
    const still = await call<EndpointView>(getEndpointRoute, "GET", `/webhook-endpoints/${made.id}`, { params });
    expect(still.json.data.enabled).toBe(true);
  });
});

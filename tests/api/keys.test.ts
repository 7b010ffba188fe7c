import { randomUUID } from "node:crypto";

import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { V1_OPERATIONS } from "@/lib/api/v1/operations";
import { createApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys/manage";
import { newApiKey } from "@/lib/api-keys/key";
import { queryRows } from "@/lib/db/client";
import { REFUSED_PER_MINUTE } from "@/lib/api-keys/rate-limit";
import { apiAddressWindows, apiKeys, auditLog, events } from "@/lib/db/schema";
import { hashedAddress } from "@/lib/http/address-bucket";
import { clientIp } from "@/lib/http/client-ip";
import { GET as listPayments } from "@/app/api/v1/payments/route";
import { POST as createRequest } from "@/app/api/v1/requests/route";
import { POST as createEndpoint } from "@/app/api/v1/webhook-endpoints/route";
import { callRoute, inProcessApp } from "@/tests/support/in-process-app";
import { newTag } from "@/tests/support/request-deps";
import { CREATE_CALL, sandboxControl } from "@/tests/support/sandbox-control";
import { handlerFor, v1Routes } from "@/tests/support/v1-routes";

// API keys at the door (docs/architecture.md "The API"): only a hash is stored, a key holds only its scopes, a
// revoked, expired or other-mode key is a 401 about that key alone, and every POST's Idempotency-Key runs it once.

const app = inProcessApp();

async function makeKey(scopes: "everything" | "read_only", limits: { readsPerMinute?: number; writesPerMinute?: number } = {}) {
  const admin = await app.person("admin");
  const created = await createApiKey(await app.db(), admin, {
    name: `books-${randomUUID().slice(0, 6)}`,
    scopes,
    expiresInDays: 90,
    readsPerMinute: limits.readsPerMinute ?? 600,
    writesPerMinute: limits.writesPerMinute ?? 60,
  });
  return { ...created, admin };
}

/** Every text or JSON column of every table that holds `needle` somewhere. */
async function columnsHolding(needle: string): Promise<string[]> {
  const db = await app.db();
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    db,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')`,
  );
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const c of columns) {
    const [hit] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${sql.identifier(c.table_name)} where ${sql.identifier(c.column_name)}::text like ${`%${needle}%`}`,
    );
    if (Number(hit?.n) > 0) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}

const requestBody = (tag: string) => ({ tag, amount: "1500.50", description: "November dues" });

describe("an API key", () => {
  it("is stored only as its hash: after making and using one, no text column anywhere holds it", async () => {
    const { key } = await makeKey("everything");
    expect(key).toMatch(/^fb_live_[0-9A-Za-z]{43}$/);
    expect((await callRoute(listPayments, "/api/v1/payments", { key })).status).toBe(200);
    expect(
      (await callRoute(createRequest, "/api/v1/requests", { method: "POST", key, idempotencyKey: randomUUID(), body: requestBody(newTag("scan")) })).status,
    ).toBe(201);
    const secret = key.slice("fb_live_".length);
    expect(await columnsHolding(secret.slice(0, 20))).toEqual([]);
  });

  it("replays the answers it keeps from a sealed copy: an endpoint's signing secret, shown once, is in no column", async () => {
    const { key } = await makeKey("everything");
    const idem = randomUUID();
    const body = { url: "https://ledger.example.com/hooks" };
    const made = await callRoute(createEndpoint, "/api/v1/webhook-endpoints", { method: "POST", key, idempotencyKey: idem, body });
    expect(made.status).toBe(201);
    const signing = (made.json.data as { secret: string }).secret;
    expect(signing).toMatch(/^whsec_/);
    expect(await columnsHolding(signing.slice("whsec_".length))).toEqual([]);
    const replay = await callRoute(createEndpoint, "/api/v1/webhook-endpoints", { method: "POST", key, idempotencyKey: idem, body });
    expect([replay.status, replay.headers.get("idempotent-replayed"), (replay.json.data as { secret: string }).secret]).toEqual([201, "true", signing]);
  });

  it("with the read-only preset is refused every write with 403 forbidden, and nothing is sent", async () => {
    const { key } = await makeKey("read_only");
    const control = sandboxControl(app.sandbox);
    const before = await control.count(CREATE_CALL);
    const routes = await v1Routes();
    const writes = V1_OPERATIONS.filter((op) => op.method !== "GET");
    expect(writes.length).toBeGreaterThan(1);
    for (const op of writes) {
      const path = op.path.replace(/\{[^}]+\}/g, "x1");
      const params = Object.fromEntries([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1] ?? "", "x1"]));
      const answer = await callRoute(handlerFor(routes, op), `/api/v1${path}`, { method: op.method, key, idempotencyKey: randomUUID(), body: {}, params });
      expect({ op: op.operationId, status: answer.status, code: answer.json.code }).toEqual({ op: op.operationId, status: 403, code: "forbidden" });
      expect(answer.json.message).toContain("lacks the");
    }
    expect(await control.count(CREATE_CALL)).toBe(before);
  });

  it("revoked or expired is a 401 that names nothing of any other key", async () => {
    const revoked = await makeKey("everything");
    const other = await makeKey("everything");
    const db = await app.db();
    expect((await revokeApiKey(db, revoked.admin, revoked.apiKey.id)).kind).toBe("revoked");
    const expired = await makeKey("everything");
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(apiKeys.id, expired.apiKey.id));
    for (const [key, words] of [
      [revoked.key, "revoked"],
      [expired.key, "expired"],
      [newApiKey("live"), "not valid"],
    ] as const) {
      const answer = await callRoute(listPayments, "/api/v1/payments", { key });
      expect(answer.status).toBe(401);
      expect(answer.json.code).toBe("unauthenticated");
      expect(answer.json.message).toContain(words);
      for (const leak of [other.apiKey.name, other.apiKey.hint, other.apiKey.id, other.key.slice(-4)]) expect(answer.json.message).not.toContain(leak);
    }
    // The other key still works.
    expect((await callRoute(listPayments, "/api/v1/payments", { key: other.key })).status).toBe(200);
  });

  it("of the sandbox's kind is refused by a live deployment, saying which kind it is", async () => {
    const answer = await callRoute(listPayments, "/api/v1/payments", { key: newApiKey("test") });
    expect(answer.status).toBe(401);
    expect(answer.json.message).toContain("test key (fb_test_");
    expect(answer.json.message).toContain("live keys (fb_live_");
    const none = await callRoute(listPayments, "/api/v1/payments", {});
    expect([none.status, none.json.code]).toEqual([401, "unauthenticated"]);
  });

  it("rolled with an overlap keeps the old key working until the overlap ends; with none, the old key stops at once", async () => {
    const first = await makeKey("everything");
    const db = await app.db();
    const rolled = await rollApiKey(db, first.admin, first.apiKey.id, 1);
    if (rolled.kind !== "rolled") throw new Error(`roll: ${rolled.kind}`);
    expect((await callRoute(listPayments, "/api/v1/payments", { key: first.key })).status).toBe(200);
    expect((await callRoute(listPayments, "/api/v1/payments", { key: rolled.key })).status).toBe(200);
    const again = await rollApiKey(db, first.admin, rolled.apiKey.id, 0);
    if (again.kind !== "rolled") throw new Error(`roll: ${again.kind}`);
    expect((await callRoute(listPayments, "/api/v1/payments", { key: rolled.key })).status).toBe(401);
    expect((await callRoute(listPayments, "/api/v1/payments", { key: again.key })).status).toBe(200);
    expect((await rollApiKey(db, first.admin, first.apiKey.id, 0)).kind).toBe("refused");
  });

  it("is counted per minute: past its reads the answer is 429 rate_limited with Retry-After, and every answer carries the RateLimit headers", async () => {
    const { key } = await makeKey("everything", { readsPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await callRoute(listPayments, "/api/v1/payments", { key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]?.json.code).toBe("rate_limited");
    expect(Number(answers[3]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answers[0]?.headers.get("ratelimit-policy")).toBe('"reads";q=3;w=60');
    expect(answers.map((a) => a.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual(['"reads";r=2', '"reads";r=1', '"reads";r=0', '"reads";r=0']);
  });
});

describe("a refused key", () => {
  it("is counted against its address: its 401 carries the refused-keys RateLimit headers, and past its limit a minute the answer is 429 with Retry-After", async () => {
    const db = await app.db();
    const bucket = hashedAddress(clientIp(new Headers()), "api-refused-key");
    try {
      const first = await callRoute(listPayments, "/api/v1/payments", { key: newApiKey("live") });
      expect([first.status, first.json.code]).toEqual([401, "unauthenticated"]);
      expect(first.headers.get("ratelimit-policy")).toBe(`"refused-keys";q=${REFUSED_PER_MINUTE};w=60`);
      expect(first.headers.get("ratelimit")).toMatch(/^"refused-keys";r=\d+;t=\d+$/);
      // The address has spent this minute and the next (as that many guesses would), whichever the next call falls in.
      await db.execute(sql`
        insert into api_address_windows (address_key, window_start, count)
        select ${bucket}, date_trunc('minute', now()) + make_interval(mins => m), ${REFUSED_PER_MINUTE} from generate_series(0, 1) as m
        on conflict (address_key, window_start) do update set count = excluded.count`);
      const limited = await callRoute(listPayments, "/api/v1/payments", { key: newApiKey("live") });
      expect([limited.status, limited.json.code]).toEqual([429, "rate_limited"]);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get("ratelimit")).toMatch(/^"refused-keys";r=0;t=\d+$/);
      // A valid key from the same address is its own policy's business.
      const { key } = await makeKey("everything");
      expect((await callRoute(listPayments, "/api/v1/payments", { key })).status).toBe(200);
    } finally {
      await db.delete(apiAddressWindows).where(eq(apiAddressWindows.addressKey, bucket));
    }
  });
});

describe("Idempotency-Key on a POST", () => {
  it("is required: 400 idempotency_key_missing, and nothing is sent", async () => {
    const { key } = await makeKey("everything");
    const answer = await callRoute(createRequest, "/api/v1/requests", { method: "POST", key, body: requestBody(newTag("nokey")) });
    expect([answer.status, answer.json.code]).toEqual([400, "idempotency_key_missing"]);
  });

  it("replays the first answer with Idempotent-Replayed, refuses another body with 422, and two at once send once", async () => {
    const { key, apiKey } = await makeKey("everything");
    const control = sandboxControl(app.sandbox);
    const tag = newTag("idem");
    const idem = randomUUID();
    const before = await control.count(CREATE_CALL);
    const [a, b] = await Promise.all([
      callRoute(createRequest, "/api/v1/requests", { method: "POST", key, idempotencyKey: idem, body: requestBody(tag) }),
      callRoute(createRequest, "/api/v1/requests", { method: "POST", key, idempotencyKey: idem, body: requestBody(tag) }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    expect([a, b].find((x) => x.status === 409)?.json.code).toBe("idempotency_key_in_flight");
    expect((await control.count(CREATE_CALL)) - before).toBe(1);

    const first = [a, b].find((x) => x.status === 201);
    const replay = await callRoute(createRequest, "/api/v1/requests", { method: "POST", key, idempotencyKey: idem, body: requestBody(tag) });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first?.json);
    expect((await control.count(CREATE_CALL)) - before).toBe(1);

    const reused = await callRoute(createRequest, "/api/v1/requests", {
      method: "POST",
      key,
      idempotencyKey: idem,
      body: { ...requestBody(tag), amount: "99.00" },
    });
    expect([reused.status, reused.json.code]).toEqual([422, "idempotency_key_reused"]);

    // The audit row and the event name the key for what it did.
    const rows = await (await app.db()).select().from(auditLog).where(eq(auditLog.action, "request.created"));
    expect(rows.some((r) => r.actorEmail === `api_key:${apiKey.name}`)).toBe(true);
    const requestId = (first?.json.data as { requestId: string }).requestId;
    const [event] = await (
      await app.db()
    )
      .select()
      .from(events)
      .where(and(eq(events.type, "request.created"), sql`${events.data}->>'requestId' = ${requestId}`));
    expect(event?.data.createdBy).toEqual({ id: expect.any(String), name: `API key ${apiKey.name}` });
  });

  it("belongs to its API key: another key's same Idempotency-Key is a new operation", async () => {
    const one = await makeKey("everything");
    const two = await makeKey("everything");
    const idem = randomUUID();
    const first = await callRoute(createRequest, "/api/v1/requests", { method: "POST", key: one.key, idempotencyKey: idem, body: requestBody(newTag("own")) });
    const second = await callRoute(createRequest, "/api/v1/requests", { method: "POST", key: two.key, idempotencyKey: idem, body: requestBody(newTag("own")) });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
  });
});

import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { queryRows } from "@/lib/db/client";
import { payments, webhookDeliveries } from "@/lib/db/schema";
import { BVN, payload } from "@/tests/support/payloads";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { MAX_WEBHOOK_BYTES, processDelivery, type Delivery, type IntakeDeps } from "./intake";
import { readCapped } from "@/lib/http/read-capped";
import { redactBody } from "./redact";
import { createRejectionLog, type Rejection, type RejectionLog } from "./rejection-log";
import { verifySignature } from "./signature";
import { deliverySignature } from "@/tests/support/sign-delivery";

const KEY = "sk_test_webhook_key_123456";
const sign = (body: string | Buffer, key = KEY) => deliverySignature(body, key);

function delivery(body: string, signature: string | null = sign(body), contentType: string | null = "application/json"): Delivery {
  return { raw: Buffer.from(body), signature, contentType, remoteAddr: "127.0.0.1" };
}

describe("verifySignature", () => {
  const body = Buffer.from(JSON.stringify(payload()));
  it.each([
    ["valid lowercase hex", sign(body), "valid"],
    ["upper-case hex (accepted: hex is case-blind)", sign(body).toUpperCase(), "valid"],
    ["wrong key", sign(body, "another-key"), "mismatch"],
    ["another body's signature", sign("{}"), "mismatch"],
    ["missing", null, "missing"],
    ["empty", "", "missing"],
    ["truncated", sign(body).slice(0, 127), "malformed"],
    ["not hex", "z".repeat(128), "malformed"],
    ["sha256 length", sign(body).slice(0, 64), "malformed"],
  ])("%s → %s", (_name, header, expected) => {
    expect(verifySignature(body, header, KEY)).toBe(expected);
  });

  it("accepts a signature over the re-serialised JSON when the spacing differs", () => {
    const compact = JSON.stringify(payload());
    const spaced = JSON.stringify(JSON.parse(compact), null, 2);
    expect(verifySignature(Buffer.from(spaced), sign(spaced), KEY)).toBe("valid");
    expect(verifySignature(Buffer.from(spaced), sign(compact), KEY)).toBe("valid_reserialised");
  });
});

describe("redactBody", () => {
  it("drops the bvn from JSON and from unparseable text", () => {
    expect(redactBody(JSON.stringify(payload()))).not.toContain(BVN);
    expect(redactBody(`{"customer": {"bvn": "${BVN}", "x": `)).not.toContain(BVN);
    expect(redactBody(`garbage ${BVN} garbage`)).not.toContain(BVN);
    expect(redactBody("x".repeat(20_000)).length).toBeLessThan(9_000);
  });
});

describe.each(dbTargets())("processDelivery on $name", (target) => {
  const database = useTestDatabase(target);
  let rejections: RejectionLog;
  const deps = (): IntakeDeps => ({ db: database.db, apiKey: KEY, amountUnit: "major", rejections });

  beforeAll(async () => {
    rejections = createRejectionLog(database.db);
  });

  async function counts() {
    const [p] = await database.db.select({ n: sql<number>`count(*)::int` }).from(payments);
    const [d] = await database.db.select({ n: sql<number>`count(*)::int` }).from(webhookDeliveries);
    return { payments: p?.n ?? 0, deliveries: d?.n ?? 0 };
  }

  async function lastDelivery() {
    const [row] = await queryRows<{ outcome: string; http_status: number; body: string | null; uuid: string | null }>(
      database.db,
      sql`select outcome, http_status, body, uuid from webhook_deliveries order by id desc limit 1`,
    );
    return row;
  }

  it("records a valid delivery once, answering 200 after the commit, with amounts as naira", async () => {
    const p = payload({ amount: 1500.5, actual_amount: 1500.5, fees: 15.01, settled_amount: 1485.49 });
    const result = await processDelivery(deps(), delivery(JSON.stringify(p)));
    expect(result).toEqual({ status: 200, message: "Payment recorded.", recordedUuid: p.uuid, paymentUuid: p.uuid });
    const [row] = await queryRows<{ amount: string; settled_amount: string; fees: string }>(
      database.db,
      sql`select amount::text, settled_amount::text, fees::text from payments where uuid = ${p.uuid}`,
    );
    expect(row).toEqual({ amount: "1500.50", settled_amount: "1485.49", fees: "15.01" });
    expect((await lastDelivery())?.outcome).toBe("recorded");
  });

  it("answers a repeat 200, logs it as a duplicate, and changes nothing", async () => {
    const body = JSON.stringify(payload());
    await processDelivery(deps(), delivery(body));
    const before = await counts();
    const again = await processDelivery(deps(), delivery(body));
    expect(again.status).toBe(200);
    expect(again.recordedUuid).toBeNull();
    expect(await counts()).toEqual({ payments: before.payments, deliveries: before.deliveries + 1 });
    expect((await lastDelivery())?.outcome).toBe("duplicate");
  });

  it("records exactly one payment and twenty log rows for twenty concurrent copies", async () => {
    const p = payload();
    const body = JSON.stringify(p);
    const before = await counts();
    const results = await Promise.all(Array.from({ length: 20 }, () => processDelivery(deps(), delivery(body))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.recordedUuid !== null)).toHaveLength(1);
    expect(await counts()).toEqual({ payments: before.payments + 1, deliveries: before.deliveries + 20 });
    const outcomes = await queryRows<{ outcome: string; n: number }>(
      database.db,
      sql`select outcome, count(*)::int as n from webhook_deliveries where uuid = ${p.uuid} group by outcome order by outcome`,
    );
    expect(outcomes).toEqual([
      { outcome: "duplicate", n: 19 },
      { outcome: "recorded", n: 1 },
    ]);
  });

  const UNAUTHENTICATED = new Set(["bad_signature", "too_large"]);
  const rejectionCases: [string, () => Delivery, number, string][] = [
    [
      "wrong key",
      () => {
        const b = JSON.stringify(payload());
        return delivery(b, sign(b, "wrong-key"));
      },
      401,
      "bad_signature",
    ],
    ["signature of another body", () => delivery(JSON.stringify(payload()), sign(JSON.stringify(payload()))), 401, "bad_signature"],
    ["missing header", () => delivery(JSON.stringify(payload()), null), 401, "bad_signature"],
    ["empty signature", () => delivery(JSON.stringify(payload()), ""), 401, "bad_signature"],
    [
      "truncated signature",
      () => {
        const b = JSON.stringify(payload());
        return delivery(b, sign(b).slice(0, 100));
      },
      401,
      "bad_signature",
    ],
    ["malformed JSON, validly signed", () => delivery('{"type": "peer-transfer.success", "uuid": '), 400, "bad_payload"],
    ["a JSON array", () => delivery(JSON.stringify([payload()])), 400, "bad_payload"],
    [
      "a missing field",
      () => {
        const { uuid: _u, ...rest } = payload();
        return delivery(JSON.stringify(rest));
      },
      400,
      "bad_payload",
    ],
    ["a wrong-typed field", () => delivery(JSON.stringify(payload({ amount: "1500" }))), 400, "bad_payload"],
    ["a negative amount", () => delivery(JSON.stringify(payload({ settled_amount: -5 }))), 400, "bad_payload"],
    [
      "a wrong content type",
      () => {
        const b = JSON.stringify(payload());
        return delivery(b, sign(b), "text/plain");
      },
      415,
      "bad_content_type",
    ],
    ["a 65 KiB body", () => ({ raw: null, signature: null, contentType: "application/json", remoteAddr: null }), 413, "too_large"],
  ];

  it.each(rejectionCases)("%s: refused with its status, logged, no payment", async (_name, make, status, outcome) => {
    const before = await counts();
    const result = await processDelivery(deps(), make());
    expect(result.status).toBe(status);
    expect(result.recordedUuid).toBeNull();
    // Unauthenticated rejections are written in the background; the others before the answer.
    await rejections.flush();
    expect(await counts()).toEqual({ payments: before.payments, deliveries: before.deliveries + 1 });
    const log = await lastDelivery();
    expect(log?.outcome).toBe(outcome);
    expect(log?.http_status).toBe(status);
    if (UNAUTHENTICATED.has(outcome)) expect(log?.body).toBeNull();
    else expect(log?.body).not.toBeNull();
  });

  it("answers unauthenticated deliveries without touching the database and hands them to the rejection log", async () => {
    const noted: Rejection[] = [];
    const untouchable = new Proxy(database.db, {
      get() {
        throw new Error("the database was used for an unauthenticated delivery");
      },
    });
    const stub: RejectionLog = { note: (r) => void noted.push(r), flush: async () => undefined };
    const junk = { db: untouchable, apiKey: KEY, amountUnit: "major" as const, rejections: stub };
    const body = JSON.stringify(payload());
    const forged = await processDelivery(junk, {
      raw: Buffer.from(body),
      signature: sign(body, "forger"),
      contentType: "application/json",
      remoteAddr: "203.0.113.5",
    });
    const huge = await processDelivery(junk, { raw: null, signature: null, contentType: "application/json", remoteAddr: "203.0.113.6" });
    expect([forged.status, huge.status]).toEqual([401, 413]);
    expect(noted.map((r) => [r.outcome, r.httpStatus, r.remoteAddr])).toEqual([
      ["bad_signature", 401, "203.0.113.5"],
      ["too_large", 413, "203.0.113.6"],
    ]);
  });

  it("names the payment of a new delivery and of a repeat, so the follow-up job is queued for both (a no-op when it exists)", async () => {
    const p = payload();
    const body = JSON.stringify(p);
    expect(await processDelivery(deps(), delivery(body))).toMatchObject({ status: 200, recordedUuid: p.uuid.toLowerCase(), paymentUuid: p.uuid.toLowerCase() });
    expect(await processDelivery(deps(), delivery(body))).toMatchObject({ status: 200, recordedUuid: null, paymentUuid: p.uuid.toLowerCase() });
  });

  it("acknowledges an unknown event type without recording a payment", async () => {
    const before = await counts();
    const result = await processDelivery(deps(), delivery(JSON.stringify(payload({ type: "peer-transfer.reversed" }))));
    expect(result.status).toBe(200);
    expect(result.recordedUuid).toBeNull();
    expect(await counts()).toEqual({ payments: before.payments, deliveries: before.deliveries + 1 });
    expect((await lastDelivery())?.outcome).toBe("unknown_type");
  });

  it("accepts the same JSON with other spacing, signed as sent or signed re-serialised", async () => {
    const p = payload();
    const spaced = JSON.stringify(p, null, 4);
    expect((await processDelivery(deps(), delivery(spaced))).status).toBe(200);
    const q = payload();
    const spacedQ = JSON.stringify(q, null, 4);
    const result = await processDelivery(deps(), delivery(spacedQ, sign(JSON.stringify(q))));
    expect(result.recordedUuid).toBe(q.uuid);
  });

  /** Runs `body` while the database refuses rows `check` does not allow in `table` (a real write failure), then allows them again. */
  async function whileRefusing<T>(table: "payments" | "webhook_deliveries", check: ReturnType<typeof sql>, body: () => Promise<T>): Promise<T> {
    await database.db.execute(sql`alter table ${sql.identifier(table)} add constraint refuse_for_test check (${check}) not valid`);
    try {
      return await body();
    } finally {
      await database.db.execute(sql`alter table ${sql.identifier(table)} drop constraint refuse_for_test`);
    }
  }

  /** A uuid as an SQL literal (DDL takes no parameters); only our own random uuids come here. */
  function uuidLiteral(uuid: string) {
    if (!/^[0-9a-f-]{36}$/.test(uuid)) throw new Error(`not a uuid: ${uuid}`);
    return sql.raw(`'${uuid}'`);
  }

  async function rowsOf(uuid: string) {
    const p = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from payments where uuid = ${uuid}`);
    const d = await queryRows<{ outcome: string }>(database.db, sql`select outcome from webhook_deliveries where uuid = ${uuid} order by id`);
    return { payments: p[0]?.n ?? 0, log: d.map((r) => r.outcome) };
  }

  it("answers 500 only when the payment cannot be written, so the service retries; the retry records it", async () => {
    const p = payload();
    const body = JSON.stringify(p);
    const failed = await whileRefusing("payments", sql`uuid <> ${uuidLiteral(p.uuid)}`, () => processDelivery(deps(), delivery(body)));
    expect(failed).toMatchObject({ status: 500, recordedUuid: null });
    expect(failed.paymentUuid).toBeUndefined();
    // Logged as an error; no payment.
    expect(await rowsOf(p.uuid)).toEqual({ payments: 0, log: ["error"] });
    // Every other way a delivery fails is a 4xx or a 200 (the cases above); this one asks for a retry, which now lands.
    expect(await processDelivery(deps(), delivery(body))).toMatchObject({ status: 200, recordedUuid: p.uuid });
    expect(await rowsOf(p.uuid)).toEqual({ payments: 1, log: ["error", "recorded"] });
  });

  it("writes the payment and its delivery-log row in one transaction: when the log row cannot be written there is no payment either", async () => {
    const p = payload();
    const body = JSON.stringify(p);
    const before = await counts();
    const failed = await whileRefusing("webhook_deliveries", sql`uuid is distinct from ${uuidLiteral(p.uuid)}`, () => processDelivery(deps(), delivery(body)));
    expect(failed).toMatchObject({ status: 500, recordedUuid: null });
    // Neither row: not the payment, not its log row (nor the error row, refused by the same rule).
    expect(await rowsOf(p.uuid)).toEqual({ payments: 0, log: [] });
    expect(await counts()).toEqual(before);
    // Both, once the log takes rows again.
    expect(await processDelivery(deps(), delivery(body))).toMatchObject({ status: 200, recordedUuid: p.uuid });
    expect(await rowsOf(p.uuid)).toEqual({ payments: 1, log: ["recorded"] });
  });

  it("never writes the bvn anywhere: every text column of every table is scanned", async () => {
    await processDelivery(deps(), delivery(JSON.stringify(payload())));
    await processDelivery(deps(), delivery(`{"broken": true, "customer": {"bvn": "${BVN}"`));
    const columns = await queryRows<{ table_name: string; column_name: string }>(
      database.db,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'jsonb', 'character varying')`,
    );
    expect(columns.length).toBeGreaterThan(10);
    for (const { table_name, column_name } of columns) {
      const hits = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text like ${`%${BVN}%`}`,
      );
      expect(hits[0]?.n, `${table_name}.${column_name}`).toBe(0);
    }
  });
});

describe("readCapped", () => {
  const post = (bytes: number, declare: boolean) =>
    new Request("http://x/", {
      method: "POST",
      body: "x".repeat(bytes),
      headers: declare ? { "content-length": String(bytes) } : {},
    });

  it("reads a body of exactly 64 KiB and refuses 65 KiB, declared or streamed", async () => {
    expect(await readCapped(post(MAX_WEBHOOK_BYTES, true), MAX_WEBHOOK_BYTES)).toMatchObject({ ok: true });
    expect(await readCapped(post(65 * 1024, true), MAX_WEBHOOK_BYTES)).toEqual({ ok: false, size: 65 * 1024 });
    expect(await readCapped(post(65 * 1024, false), MAX_WEBHOOK_BYTES)).toMatchObject({ ok: false });
  });
});

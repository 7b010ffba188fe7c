import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { openDatabase, queryRows } from "./client";
import { DatabaseLockedError } from "./lock";
import { auditLog, fundRequests, payments, staff, webhookDeliveries } from "./schema";

const payment = (uuid: string) => ({
  uuid,
  type: "peer-transfer.success",
  amount: "1500.00",
  actualAmount: "1500.00",
  settledAmount: "1485.00",
  fees: "15.00",
  description: "Invoice 12",
  customerName: "Ada Obi",
  customerTag: "ada.obi",
});

it("requires Postgres tests in CI", () => {
  // A CI run without TEST_DATABASE_URL would silently test PGlite only.
  if (process.env.CI) expect(process.env.TEST_DATABASE_URL, "CI must set TEST_DATABASE_URL").toBeTruthy();
  expect(dbTargets().length).toBeGreaterThanOrEqual(1);
});

describe.each(dbTargets())("database on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });

  it("applies every migration and creates the tables", async () => {
    const { db } = database;
    const rows = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = rows.map((r) => r.table_name);
    expect(names).toEqual(expect.arrayContaining(["audit_log", "fund_requests", "payments", "staff", "webhook_deliveries"]));
  });

  it("refuses a second payment with the same uuid (the constraint, not a lookup)", async () => {
    const { db } = database;
    await db.insert(payments).values(payment("7d0c7d4e-0000-4000-8000-000000000001"));
    await expect(db.insert(payments).values(payment("7d0c7d4e-0000-4000-8000-000000000001"))).rejects.toThrow();
    const inserted = await db.insert(payments).values(payment("7d0c7d4e-0000-4000-8000-000000000001")).onConflictDoNothing().returning({ uuid: payments.uuid });
    expect(inserted).toEqual([]);
    const rows = await db.select().from(payments);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.settledAmount).toBe("1485.00");
  });

  it("keeps fund request idempotency keys, references and service ids unique", async () => {
    const { db } = database;
    const base = { tag: "ada.obi", amount: "10.50", description: "x", status: "sending" as const };
    await db.insert(fundRequests).values({ ...base, reference: "fb_1", idempotencyKey: "k1", requestId: "1001" });
    await expect(db.insert(fundRequests).values({ ...base, reference: "fb_2", idempotencyKey: "k1" })).rejects.toThrow();
    await expect(db.insert(fundRequests).values({ ...base, reference: "fb_1", idempotencyKey: "k2" })).rejects.toThrow();
    await expect(db.insert(fundRequests).values({ ...base, reference: "fb_3", requestId: "1001" })).rejects.toThrow();
    await expect(db.insert(fundRequests).values({ ...base, reference: "fb_4", status: "weird" as "sending" })).rejects.toThrow();
    await expect(db.insert(fundRequests).values({ ...base, reference: "fb_5", amount: "0" })).rejects.toThrow();
    expect(await db.select().from(fundRequests)).toHaveLength(1);
  });

  it("keeps staff e-mails unique and lower-case, roles checked", async () => {
    const { db } = database;
    const s = { email: "a@example.com", name: "A", role: "admin" as const, passwordHash: "h" };
    await db.insert(staff).values(s);
    await expect(db.insert(staff).values(s)).rejects.toThrow();
    await expect(db.insert(staff).values({ ...s, email: "B@example.com" })).rejects.toThrow();
    await expect(db.insert(staff).values({ ...s, email: "c@example.com", role: "owner" as "admin" })).rejects.toThrow();
  });

  it("stores money exactly as numeric and sums it without float error", async () => {
    const { db } = database;
    for (let i = 0; i < 10; i++) await db.insert(payments).values({ ...payment(`00000000-0000-4000-8000-00000000000${i}`), settledAmount: "0.10" });
    const [row] = await db.select({ total: sql<string>`sum(${payments.settledAmount})::text` }).from(payments);
    expect(row?.total).toBe("1.00");
  });

  it("survives a restart", async () => {
    await database.db.insert(auditLog).values({ action: "test.persisted", actorEmail: "a@example.com" });
    await database.db.insert(webhookDeliveries).values({ outcome: "recorded", httpStatus: 200 });
    await database.close();
    const again = await database.reopen();
    const rows = await again.db.select().from(auditLog).where(eq(auditLog.action, "test.persisted"));
    expect(rows).toHaveLength(1);
    expect(await again.db.select().from(webhookDeliveries)).toHaveLength(1);
  });
});

describe("embedded database lock", () => {
  it("refuses a second opener of the same folder while the first holds it, and frees it on close", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-lock-"));
    try {
      const first = await openDatabase({ kind: "pglite", dataDir });
      // The same process re-opening must also be refused: the lock records the pid that holds it.
      await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toBeInstanceOf(Error);
      await first.close();
      const second = await openDatabase({ kind: "pglite", dataDir });
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("names the holder and says what to do", () => {
    const error = new DatabaseLockedError("/x/data", 1234);
    expect(error.message).toContain("pid 1234");
    expect(error.message).toContain("DATABASE_URL");
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, campaigns, staff } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { auditNames, auditPeople, queryAudit } from "./query";
import { pruneRefusedSignIns } from "./retention";
import { REFUSAL_WINDOW_MS, writeAudit, writeRefusedSignIn } from "./write";

describe.each(dbTargets())("the audit log on $name", (target) => {
  const database = useTestDatabase(target);

  it("folds refused sign-ins into one counted row per address, reason and 15 minutes, even when they race", async () => {
    const { db } = database;
    const t0 = new Date(Math.ceil(Date.now() / REFUSAL_WINDOW_MS) * REFUSAL_WINDOW_MS + 1_000);
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        writeRefusedSignIn(db, { action: "auth.sign_in_failed", reason: "unknown e-mail", ip: "203.0.113.5", at: new Date(t0.getTime() + i) }),
      ),
    );
    await writeRefusedSignIn(db, { action: "auth.sign_in_failed", reason: "unknown e-mail", ip: "203.0.113.6", at: t0 });
    await writeRefusedSignIn(db, { action: "auth.sign_in_throttled", reason: "throttled", ip: "203.0.113.5", at: t0 });
    await writeRefusedSignIn(db, {
      action: "auth.sign_in_failed",
      reason: "unknown e-mail",
      ip: "203.0.113.5",
      at: new Date(t0.getTime() + REFUSAL_WINDOW_MS),
    });
    const rows = await db.select().from(auditLog).where(eq(auditLog.ip, "203.0.113.5"));
    const counts = rows.map((r) => `${r.action} ${r.count}`).sort();
    expect(counts).toEqual(["auth.sign_in_failed 1", "auth.sign_in_failed 25", "auth.sign_in_throttled 1"]);
    // No e-mail is kept for them.
    expect(rows.every((r) => r.actorEmail === null && r.target === null)).toBe(true);
  });

  it("offers staff accounts as people, never e-mails typed at the sign-in form", async () => {
    const { db } = database;
    await db.insert(staff).values({ email: "kept@audit.test", name: "Kept", role: "viewer", passwordHash: "x" });
    await writeAudit(db, { action: "auth.sign_in_failed", actor: { id: null, email: "attacker-chosen@evil.test" }, ip: "203.0.113.9" });
    const people = await auditPeople(db);
    expect(people).toContain("kept@audit.test");
    expect(people).not.toContain("attacker-chosen@evil.test");
  });

  it("counts matching rows only up to the cap, and never offers a page past it", async () => {
    const { db } = database;
    for (let i = 0; i < 8; i++) await writeAudit(db, { action: "payment.reverify", target: `cap-${i}`, ip: "203.0.113.10" });
    const capped = await queryAudit(db, { action: "payment.reverify", page: 1 }, 5);
    expect(capped).toMatchObject({ total: 5, totalCapped: true });
    const whole = await queryAudit(db, { action: "payment.reverify", page: 1 }, 100);
    expect(whole).toMatchObject({ total: 8, totalCapped: false });
    expect(whole.items).toHaveLength(8);
  });

  it("names a page's people and campaigns for its sentences, and skips targets that are not ids", async () => {
    const { db } = database;
    const [ada] = await db.insert(staff).values({ email: "ada@names.test", name: "Ada", role: "admin", passwordHash: "x" }).returning({ id: staff.id });
    await db.insert(staff).values({ email: "tunde@names.test", name: "Tunde", role: "viewer", passwordHash: "x" });
    const [dues] = await db
      .insert(campaigns)
      .values({ name: "December dues", createdBy: ada?.id ?? null })
      .returning({ id: campaigns.id });
    await writeAudit(db, { action: "staff.role_changed", actor: { id: ada?.id ?? null, email: "ada@names.test" }, target: "tunde@names.test" });
    await writeAudit(db, { action: "campaign.started", actor: { id: ada?.id ?? null, email: "ada@names.test" }, target: dues?.id ?? null });
    await writeAudit(db, { action: "campaign.cancelled", target: "not-a-uuid" });
    const { items } = await queryAudit(db, { page: 1 });
    const names = await auditNames(db, items);
    expect(Object.fromEntries(names.people)).toEqual({ "ada@names.test": "Ada", "tunde@names.test": "Tunde" });
    expect([...names.campaigns.values()]).toEqual(["December dues"]);
  });

  it("retention removes refused sign-ins after 90 days and keeps what staff did", async () => {
    const { db } = database;
    const old = new Date(Date.now() - 91 * 24 * 60 * 60 * 1000);
    await writeRefusedSignIn(db, { action: "auth.sign_in_throttled", reason: "throttled", ip: "203.0.113.20", at: old });
    await db.insert(auditLog).values({ action: "staff.created", target: "old@audit.test", at: old });
    await db.insert(auditLog).values({ action: "auth.sign_in_failed", actorEmail: "kept@audit.test", ip: "203.0.113.21", at: new Date() });
    expect(await pruneRefusedSignIns(db)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(auditLog).where(eq(auditLog.ip, "203.0.113.20"))).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.target, "old@audit.test"))).toHaveLength(1);
    expect(await db.select().from(auditLog).where(eq(auditLog.ip, "203.0.113.21"))).toHaveLength(1);
  });
});

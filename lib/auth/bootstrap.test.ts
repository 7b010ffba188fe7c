import { describe, expect, it } from "vitest";

import { eq } from "drizzle-orm";

import { appMeta, auditLog, recoveryCodes, staff } from "@/lib/db/schema";
import { findStaffByEmail, updateStaff } from "@/lib/auth/accounts";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { bootstrapAdmins } from "./bootstrap";
import { DEMO_ADMIN } from "./demo";
import { hashPassword, verifyPassword } from "./password";
import { openSession, startSession } from "./sessions";

const [pglite] = dbTargets();

describe("bootstrapAdmins", () => {
  if (!pglite) throw new Error("PGlite target missing");
  const database = useTestDatabase(pglite);
  const lines: string[] = [];
  const log = (l: string) => lines.push(l);
  /** Each test has its own admin, made the way a first deploy makes it, so no test leans on another's. */
  const firstDeploy = (email: string, password = "first-password") =>
    bootstrapAdmins(database.db, { sandbox: false, admin: { email, password, reset: false } }, log);

  it("creates the ADMIN_EMAIL admin once; a later start leaves a disabled account disabled", async () => {
    const { db } = database;
    await bootstrapAdmins(db, { sandbox: false, admin: { email: "boss@biz.test", password: "first-password", reset: false } }, log);
    let row = await findStaffByEmail(db, "boss@biz.test");
    expect(row?.role).toBe("admin");
    expect(await verifyPassword(row?.passwordHash ?? null, "first-password")).toBe(true);
    expect(lines.at(-1)).toContain("created");

    // Disabled after a compromise: the next deploy with ADMIN_EMAIL still set must not bring it back.
    await updateStaff(db, row?.id ?? "", { role: "viewer", disabled: true });
    await bootstrapAdmins(db, { sandbox: false, admin: { email: "boss@biz.test", password: "second-password", reset: false } }, log);
    row = await findStaffByEmail(db, "boss@biz.test");
    expect(row).toMatchObject({ role: "viewer", disabled: true });
    expect(await verifyPassword(row?.passwordHash ?? null, "first-password")).toBe(true);
    expect(lines.at(-1)).toContain("left as it is");
  });

  it("with ADMIN_RESET=1 resets the password, role and disabled flag, removes two-step sign-in, ends sessions, and audits it", async () => {
    const { db } = database;
    await firstDeploy("locked@biz.test");
    const before = await findStaffByEmail(db, "locked@biz.test");
    if (!before) throw new Error("admin missing");
    // A locked-out admin: a second step on a lost phone and a session somebody else may hold.
    await db.update(staff).set({ totpSecret: "v1.sealed", totpLastStep: 5 }).where(eq(staff.id, before.id));
    await db.insert(recoveryCodes).values({ staffId: before.id, codeHash: "h" });
    const session = await startSession(db, { staffId: before.id, userAgent: "test", ip: "203.0.113.9" });
    await bootstrapAdmins(db, { sandbox: false, admin: { email: "locked@biz.test", password: "second-password", reset: true } }, log);
    const row = await findStaffByEmail(db, "locked@biz.test");
    expect(row).toMatchObject({ role: "admin", disabled: false });
    expect(await verifyPassword(row?.passwordHash ?? null, "second-password")).toBe(true);
    expect(await verifyPassword(row?.passwordHash ?? null, "first-password")).toBe(false);
    expect(row).toMatchObject({ totpSecret: null, totpLastStep: null });
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.staffId, before.id))).toEqual([]);
    expect(await openSession(db, session, before.id)).toBeNull();
    const audits = await db.select().from(auditLog).where(eq(auditLog.target, "locked@biz.test"));
    expect(audits.map((a) => a.action)).toEqual(["staff.created", "staff.password_reset"]);
    expect(audits[1]?.detail).toMatchObject({ via: "ADMIN_RESET" });
  });

  it("ADMIN_RESET=1 left set acts once per password: the same ADMIN_PASSWORD again changes nothing and says why; a new one resets", async () => {
    const { db } = database;
    await firstDeploy("again@biz.test");
    const reset = (password: string) => bootstrapAdmins(db, { sandbox: false, admin: { email: "again@biz.test", password, reset: true } }, log);
    await reset("third-password");
    let row = await findStaffByEmail(db, "again@biz.test");
    expect(await verifyPassword(row?.passwordHash ?? null, "third-password")).toBe(true);
    // Disabled by another admin since: the next start with the same variables must not bring it back.
    await updateStaff(db, row?.id ?? "", { disabled: true });
    const session = await startSession(db, { staffId: row?.id ?? "", userAgent: "test", ip: "203.0.113.9" });
    await reset("third-password");
    row = await findStaffByEmail(db, "again@biz.test");
    expect(row?.disabled).toBe(true);
    expect(lines.at(-1)).toMatch(/ADMIN_RESET=1 ignored: .*already reset with this ADMIN_PASSWORD/);
    const audits = await db.select().from(auditLog).where(eq(auditLog.target, "again@biz.test"));
    expect(audits.filter((a) => a.action === "staff.password_reset")).toHaveLength(1);
    // The marker is a salted hash, never the password.
    const stored = JSON.stringify(await db.select().from(appMeta));
    expect(stored).not.toContain("third-password");
    // A new password is a new reset.
    await db
      .update(staff)
      .set({ disabled: false })
      .where(eq(staff.id, row?.id ?? ""));
    expect(await openSession(db, session, row?.id ?? "")).not.toBeNull();
    await reset("fourth-password");
    row = await findStaffByEmail(db, "again@biz.test");
    expect(await verifyPassword(row?.passwordHash ?? null, "fourth-password")).toBe(true);
    expect(await openSession(db, session, row?.id ?? "")).toBeNull();
  });

  it("ADMIN_RESET=1 set on the very first start creates the admin and is spent: the next start does not undo the owner's new password", async () => {
    const { db } = database;
    const start = () => bootstrapAdmins(db, { sandbox: false, admin: { email: "fresh@biz.test", password: "deploy-password", reset: true } }, log);
    await start();
    const made = await findStaffByEmail(db, "fresh@biz.test");
    expect(made?.role).toBe("admin");
    // The owner signs in and chooses their own password; the deploy still carries ADMIN_RESET=1.
    await db
      .update(staff)
      .set({ passwordHash: await hashPassword("owners-own-password") })
      .where(eq(staff.id, made?.id ?? ""));
    await start();
    const row = await findStaffByEmail(db, "fresh@biz.test");
    expect(await verifyPassword(row?.passwordHash ?? null, "owners-own-password")).toBe(true);
    expect(lines.at(-1)).toMatch(/ADMIN_RESET=1 ignored/);
    const audits = await db.select().from(auditLog).where(eq(auditLog.target, "fresh@biz.test"));
    expect(audits.map((a) => a.action)).toEqual(["staff.created"]);
  });

  it("creates the demo admin only in sandbox mode", async () => {
    const { db } = database;
    await bootstrapAdmins(db, { sandbox: false, admin: undefined }, log);
    expect(await findStaffByEmail(db, DEMO_ADMIN.email)).toBeNull();
    await bootstrapAdmins(db, { sandbox: true, admin: undefined }, log);
    expect((await findStaffByEmail(db, DEMO_ADMIN.email))?.role).toBe("admin");
  });
});

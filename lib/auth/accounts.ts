import "server-only";

import { and, asc, eq, isNull } from "drizzle-orm";

import type { Role } from "@/lib/client/auth/roles";
import type { SessionEndReason } from "@/lib/auth/sessions";
import { hashPassword } from "@/lib/auth/password";
import type { Db } from "@/lib/db/client";
import { recoveryCodes, staff, staffSessions, type StaffRow } from "@/lib/db/schema";

export interface StaffView {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** Two-step sign-in is on (the staff page shows it, with Reset). */
  twoStep: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toStaffView(row: StaffRow): StaffView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    twoStep: row.totpSecret !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findStaffByEmail(db: Db, email: string): Promise<StaffRow | null> {
  const [row] = await db.select().from(staff).where(eq(staff.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

export async function findStaffById(db: Db, id: string): Promise<StaffRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
  return row ?? null;
}

export async function listStaff(db: Db): Promise<StaffRow[]> {
  return db.select().from(staff).orderBy(asc(staff.email));
}

/** Inserts; returns null when the e-mail is taken (the unique constraint decides, not a lookup). */
export async function createStaff(
  db: Db,
  input: { email: string; name: string; role: Role; password: string; mustChangePassword?: boolean },
): Promise<StaffRow | null> {
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(staff)
    .values({ email: input.email.toLowerCase(), name: input.name, role: input.role, passwordHash, mustChangePassword: input.mustChangePassword ?? false })
    .onConflictDoNothing({ target: staff.email })
    .returning();
  return row ?? null;
}

/** Creates the admin, or resets its password, role and enabled state (ADMIN_EMAIL/ADMIN_PASSWORD at start). */
/** Creates the admin unless the e-mail already has an account, which is left exactly as it is. */
export async function createAdminIfMissing(db: Db, email: string, password: string, name = "Administrator"): Promise<"created" | "exists"> {
  const passwordHash = await hashPassword(password);
  // The unique e-mail decides "already there?": a second start inserts nothing.
  const inserted = await db
    .insert(staff)
    .values({ email: email.toLowerCase(), name, role: "admin", passwordHash })
    .onConflictDoNothing({ target: staff.email })
    .returning({ id: staff.id });
  return inserted.length > 0 ? "created" : "exists";
}

/**
 * ADMIN_RESET=1 (the way back in for a locked-out admin): this password, the admin role, enabled again,
 * two-step sign-in removed (a lost phone), and every session of the account ended.
 */
export async function resetAdmin(db: Db, email: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(staff)
      .set({
        passwordHash,
        role: "admin",
        disabled: false,
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        updatedAt: new Date(),
      })
      .where(eq(staff.email, email.toLowerCase()))
      .returning({ id: staff.id });
    if (!row) return;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.staffId, row.id));
    await tx
      .update(staffSessions)
      .set({ endedAt: new Date(), endedReason: "admin_reset" satisfies SessionEndReason })
      .where(and(eq(staffSessions.staffId, row.id), isNull(staffSessions.endedAt)));
  });
}

export async function updateStaff(db: Db, id: string, patch: { role?: Role; disabled?: boolean }): Promise<StaffRow | null> {
  const [row] = await db
    .update(staff)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(staff.id, id))
    .returning();
  return row ?? null;
}

/**
 * Changes role or `disabled`, refusing ("last_admin") a change that would leave no active admin.
 * The active admins are locked first, so two admins demoting each other at once cannot both win.
 */
export async function updateStaffKeepingAnAdmin(db: Db, id: string, patch: { role?: Role; disabled?: boolean }): Promise<StaffRow | "last_admin" | null> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: staff.id })
      .from(staff)
      .where(and(eq(staff.role, "admin"), eq(staff.disabled, false)))
      .for("update");
    const losesAdmin = (patch.role !== undefined && patch.role !== "admin") || patch.disabled === true;
    if (losesAdmin && admins.some((a) => a.id === id) && admins.length < 2) return "last_admin";
    return updateStaff(tx, id, patch);
  });
}

/** A new password for the account (the person's own change; lib/auth/sessions ends their other sessions): theirs now. */
export async function setPassword(db: Db, id: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.update(staff).set({ passwordHash, mustChangePassword: false, updatedAt: new Date() }).where(eq(staff.id, id));
}

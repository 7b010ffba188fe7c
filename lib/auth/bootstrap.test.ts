import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Database } from "@/lib/db/client";
import { findStaffByEmail, updateStaff } from "@/lib/staff/repo";
import { dbTargets } from "@/tests/db-targets";

import { bootstrapAdmins } from "./bootstrap";
import { DEMO_ADMIN } from "./demo";
import { verifyPassword } from "./password";

const [pglite] = dbTargets();

describe("bootstrapAdmins", () => {
  let database: Database;
  let dispose: () => Promise<void>;
  const lines: string[] = [];
  const log = (l: string) => lines.push(l);

  beforeAll(async () => {
    if (!pglite) throw new Error("PGlite target missing");
    const t = await pglite.create();
    database = t.database;
    dispose = t.dispose;
  });
  afterAll(async () => dispose());

  it("creates the ADMIN_EMAIL admin, then resets its password, role and disabled flag", async () => {
    const { db } = database;
    await bootstrapAdmins(db, { sandbox: false, admin: { email: "boss@biz.test", password: "first-password" } }, log);
    let row = await findStaffByEmail(db, "boss@biz.test");
    expect(row?.role).toBe("admin");
    expect(await verifyPassword(row?.passwordHash ?? null, "first-password")).toBe(true);
    expect(lines.at(-1)).toContain("created");

    await updateStaff(db, row?.id ?? "", { role: "viewer", disabled: true });
    await bootstrapAdmins(db, { sandbox: false, admin: { email: "boss@biz.test", password: "second-password" } }, log);
    row = await findStaffByEmail(db, "boss@biz.test");
    expect(row).toMatchObject({ role: "admin", disabled: false });
    expect(await verifyPassword(row?.passwordHash ?? null, "second-password")).toBe(true);
    expect(await verifyPassword(row?.passwordHash ?? null, "first-password")).toBe(false);
    expect(lines.at(-1)).toContain("password reset");
  });

  it("creates the demo admin only in sandbox mode", async () => {
    const { db } = database;
    await bootstrapAdmins(db, { sandbox: false, admin: undefined }, log);
    expect(await findStaffByEmail(db, DEMO_ADMIN.email)).toBeNull();
    await bootstrapAdmins(db, { sandbox: true, admin: undefined }, log);
    expect((await findStaffByEmail(db, DEMO_ADMIN.email))?.role).toBe("admin");
  });
});

import { describe, expect, it } from "vitest";

import { staff } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { createStaff, findStaffById, setPassword, updateStaffKeepingAnAdmin } from "./accounts";
import { verifyPassword } from "./password";

describe.each(dbTargets())("staff changes on $name", (target) => {
  const database = useTestDatabase(target);

  async function admin(email: string): Promise<string> {
    const [row] = await database.db.insert(staff).values({ email, name: email, role: "admin", passwordHash: "x" }).returning({ id: staff.id });
    if (!row) throw new Error("insert returned nothing");
    return row.id;
  }

  it("two admins demoting each other at once leave exactly one admin", async () => {
    const a = await admin("a@race.test");
    const b = await admin("b@race.test");
    const outcomes = await Promise.all([
      updateStaffKeepingAnAdmin(database.db, a, { role: "viewer" }),
      updateStaffKeepingAnAdmin(database.db, b, { disabled: true }),
    ]);
    expect(outcomes.filter((o) => o === "last_admin")).toHaveLength(1);
    const rows = await database.db.select().from(staff);
    expect(rows.filter((r) => r.role === "admin" && !r.disabled)).toHaveLength(1);
  });

  it("lets a change through that keeps an admin, and answers null for an unknown id", async () => {
    const c = await admin("c@race.test");
    expect(await updateStaffKeepingAnAdmin(database.db, c, { role: "operator" })).toMatchObject({ role: "operator" });
    expect(await updateStaffKeepingAnAdmin(database.db, "00000000-0000-4000-8000-000000000000", { role: "viewer" })).toBeNull();
  });

  it("an account an admin made must change its password; the person's own change clears that", async () => {
    const made = await createStaff(database.db, {
      email: "New.Person@first.test",
      name: "New",
      role: "viewer",
      password: "admins-choice-1",
      mustChangePassword: true,
    });
    expect(made).toMatchObject({ email: "new.person@first.test", mustChangePassword: true });
    const plain = await createStaff(database.db, { email: "console@first.test", name: "Console", role: "viewer", password: "typed-at-console" });
    expect(plain?.mustChangePassword).toBe(false);
    await setPassword(database.db, made?.id ?? "", "only-mine-1234");
    const after = await findStaffById(database.db, made?.id ?? "");
    expect(after?.mustChangePassword).toBe(false);
    expect(await verifyPassword(after?.passwordHash ?? "", "only-mine-1234")).toBe(true);
  });
});

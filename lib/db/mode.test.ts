import { describe, expect, it } from "vitest";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { staff } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { claimDatabaseMode, DatabaseModeError, describeDatabase } from "./mode";

describe.each(dbTargets())("claimDatabaseMode on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });

  it("a sandbox database refuses to start live, saying what it holds and what to do", async () => {
    await claimDatabaseMode(database.db, "sandbox", "db");
    await claimDatabaseMode(database.db, "sandbox", "db");
    const error = await claimDatabaseMode(database.db, "live", "the embedded database in /x (DATA_DIR)").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseModeError);
    expect((error as Error).message).toContain("first used in sandbox mode");
    expect((error as Error).message).toContain("demo admin");
    expect((error as Error).message).toContain("fresh");
  });

  it("a live database refuses to start in sandbox mode (a lost SERVICE_BASE_URL)", async () => {
    await claimDatabaseMode(database.db, "live", "db");
    const error = await claimDatabaseMode(database.db, "sandbox", "db").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseModeError);
    expect((error as Error).message).toContain("SERVICE_BASE_URL");
    expect((error as Error).message).toContain("development key");
  });

  it("two first starts at once agree on one mode", async () => {
    const results = await Promise.allSettled([claimDatabaseMode(database.db, "live", "db"), claimDatabaseMode(database.db, "sandbox", "db")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("a database from before the check that holds the demo admin counts as a sandbox one", async () => {
    await database.db.insert(staff).values({ email: DEMO_ADMIN.email, name: "Demo", role: "admin", passwordHash: "x" });
    await expect(claimDatabaseMode(database.db, "live", "db")).rejects.toBeInstanceOf(DatabaseModeError);
  });
});

describe("describeDatabase", () => {
  it("names the folder or the Postgres host and database, never the password", () => {
    expect(describeDatabase({ kind: "pglite", dataDir: "/srv/data" })).toContain("/srv/data");
    const text = describeDatabase({ kind: "postgres", url: "postgres://user:s3cret@db.internal:5432/fundboard" });
    expect(text).toContain("fundboard on db.internal");
    expect(text).not.toContain("s3cret");
  });
});

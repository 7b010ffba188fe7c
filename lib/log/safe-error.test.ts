import { describe, expect, it } from "vitest";

import { payments, staff } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { safeErrorSummary } from "./safe-error";

// A failed write's parameters (e-mail, phone, name, password hash) must never reach the log.
describe.each(dbTargets())("safeErrorSummary on $name", (target) => {
  const database = useTestDatabase(target);

  it("keeps the code and what went wrong, not the staff row's e-mail or password hash", async () => {
    const row = { email: "secret.person@biz.test", name: "Secret Person", role: "viewer" as const, passwordHash: "$argon2id$v=19$m=19456$HASHVALUE" };
    await database.db.insert(staff).values(row);
    const error = await database.db
      .insert(staff)
      .values(row)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).not.toBeNull();
    // The raw error does carry the values: that is what must not be logged.
    expect(String((error as Error).message)).toContain("secret.person@biz.test");
    const line = safeErrorSummary(error);
    expect(line).toContain("23505");
    expect(line).toMatch(/duplicate key|unique/i);
    for (const secret of ["secret.person@biz.test", "Secret Person", "HASHVALUE", "params"]) expect(line).not.toContain(secret);
  });

  it("leaves out a payment's customer contact details", async () => {
    const error = await database.db
      .insert(payments)
      .values({
        uuid: "x",
        type: "peer",
        amount: "-1",
        actualAmount: "1",
        settledAmount: "1",
        fees: "0",
        description: "d",
        customerName: "Ada Customer",
        customerTag: "ada",
        customerEmail: "ada@mail.test",
        customerPhone: "+2348000000001",
        fundRequestId: "not-a-uuid",
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    const line = safeErrorSummary(error);
    expect(line).toMatch(/\[\w+\]/);
    for (const secret of ["Ada Customer", "ada@mail.test", "+2348000000001"]) expect(line).not.toContain(secret);
  });
});

describe("safeErrorSummary on other values", () => {
  it("names plain errors and strings without stack traces", () => {
    expect(safeErrorSummary(new TypeError("bad thing\n    at x (file.ts:1:1)"))).toBe("TypeError: bad thing");
    expect(safeErrorSummary("just text")).toBe("just text");
    expect(safeErrorSummary(undefined)).toBe("unknown error");
  });
});

import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { allOrNothing } from "./all-or-nothing";
import { payments } from "./schema";

// A change in one transaction (lib/db/all-or-nothing.ts): "changed meanwhile" is false and keeps nothing; a failure
// that is not a lost race is the caller's to see.

const uuid = (n: number) => `5e1f0c2a-0000-4000-8000-${String(n).padStart(12, "0")}`;
const payment = (n: number) => ({
  uuid: uuid(n),
  type: "peer-transfer.success",
  amount: "1500.00",
  actualAmount: "1499.00",
  settledAmount: "1484.00",
  fees: "15.00",
  description: "Invoice 12",
  customerName: "Ada Obi",
  customerTag: "ada.obi",
});

describe.each(dbTargets())("allOrNothing on $name", (target) => {
  const database = useTestDatabase(target);

  it("answers false and keeps nothing when the change says so or loses a race for a unique row, and throws any other failure", async () => {
    const { db } = database;
    await db.insert(payments).values(payment(1));
    const saidNo = await allOrNothing(db, async (tx) => {
      await tx.insert(payments).values(payment(2));
      return false;
    });
    const lostRace = await allOrNothing(db, async (tx) => {
      await tx.insert(payments).values(payment(3));
      await tx.insert(payments).values(payment(1));
      return true;
    });
    const failed = allOrNothing(db, async (tx) => {
      await tx.insert(payments).values(payment(4));
      throw new Error("the disk is full");
    });
    await expect(failed).rejects.toThrow("the disk is full");
    const done = await allOrNothing(db, async (tx) => {
      await tx.insert(payments).values(payment(5));
      return true;
    });
    expect({ saidNo, lostRace, done }).toEqual({ saidNo: false, lostRace: false, done: true });
    const kept = await db.select({ uuid: payments.uuid }).from(payments).orderBy(asc(payments.uuid));
    expect(kept.map((r) => r.uuid)).toEqual([uuid(1), uuid(5)]);
  });
});

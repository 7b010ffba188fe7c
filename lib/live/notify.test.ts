import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { subscribe, type LiveEvent } from "@/lib/live/bus";
import { announce } from "@/lib/live/notify";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { waitFor } from "@/tests/support/wait-for";

describe.each(dbTargets())("live events from the change's transaction on $name", (target) => {
  const database = useTestDatabase(target, { live: true });

  it("reaches this process's streams at the commit, and never for a change that rolled back", async () => {
    const seen: LiveEvent[] = [];
    const unsubscribe = subscribe((e) => seen.push(e));
    try {
      await database.db
        .transaction(async (tx) => {
          await announce(tx, { type: "payment.recorded", uuid: "rolled-back" });
          throw new Error("the change failed");
        })
        .catch(() => undefined);
      await database.db.transaction(async (tx) => {
        await announce(tx, { type: "payment.recorded", uuid: "committed" });
        // Not before the commit: the transaction is still open here.
        await tx.execute(sql`select 1`);
        expect(seen).toEqual([]);
      });
      await waitFor("the committed event", () => (seen.length > 0 ? true : undefined));
      // A later committed event arrives after the first, so the rolled-back one had every chance to show up.
      await database.db.transaction((tx) => announce(tx, { type: "balance.changed" }));
      await waitFor("the second event", () => (seen.length > 1 ? true : undefined));
      expect(seen).toEqual([{ type: "payment.recorded", uuid: "committed" }, { type: "balance.changed" }]);
    } finally {
      unsubscribe();
    }
  });

  it("carries a burst from one transaction in order, split under the NOTIFY size limit", async () => {
    const seen: string[] = [];
    const unsubscribe = subscribe((e) => {
      if (e.type === "payment.recorded") seen.push(e.uuid);
    });
    try {
      const uuids = Array.from({ length: 300 }, (_, i) => `burst-${i}-${"x".repeat(40)}`);
      await database.db.transaction((tx) => announce(tx, ...uuids.map((uuid) => ({ type: "payment.recorded" as const, uuid }))));
      await waitFor("the burst", () => (seen.length === uuids.length ? true : undefined));
      expect(seen).toEqual(uuids);
    } finally {
      unsubscribe();
    }
  });

  // PGlite opens in one process only: there is no other instance to hear.
  it.runIf(target.name === "postgres")("hears a change committed by another instance (another connection to the same database)", async () => {
    const seen: LiveEvent[] = [];
    const unsubscribe = subscribe((e) => seen.push(e));
    const other = await database.reopen();
    try {
      await other.db.transaction((tx) => announce(tx, { type: "campaign.progress", campaignId: "from-another-instance" }));
      await waitFor("the other instance's event", () => (seen.length > 0 ? true : undefined));
      expect(seen).toEqual([{ type: "campaign.progress", campaignId: "from-another-instance" }]);
    } finally {
      unsubscribe();
      await other.close();
    }
  });
});

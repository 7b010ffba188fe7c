import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";

import { webhookDeliveries } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { DELIVERY_COUNT_CAP, DELIVERY_MAX_PAGE, DELIVERY_PAGE_SIZE, deliveryFilterParam, listDeliveries, recentBadSignatures } from "./log-queries";
import { createRejectionLog } from "./rejection-log";

// docs/architecture.md: the banner's summary counts folded rows, and the log's page and count stay bounded.

const NOW = new Date(Date.UTC(2030, 5, 1, 12, 30));
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

describe.each(dbTargets())("delivery-log queries on $name", (target) => {
  const database = useTestDatabase(target);

  beforeEach(async () => {
    await database.db.execute(sql`delete from webhook_deliveries`);
  });

  /** `n` plain rows, newest `minutesAgo(0)` and one second apart going back. */
  const fill = (n: number, outcome: "recorded" | "bad_signature" = "recorded") =>
    database.db.execute(
      sql`insert into webhook_deliveries (outcome, http_status, received_at, remote_addr)
          select ${outcome}, 200, ${NOW.toISOString()}::timestamptz - make_interval(secs => g), '192.0.2.1' from generate_series(0, ${n - 1}) as g`,
    );

  describe("recentBadSignatures", () => {
    it("sums the last hour's bad signatures, folded counts included, with the top five sources", async () => {
      const bad = (remoteAddr: string | null, count: number, at: Date, foldKey: string | null = null) => ({
        outcome: "bad_signature" as const,
        httpStatus: 401,
        remoteAddr,
        count,
        receivedAt: at,
        foldKey,
      });
      await database.db.insert(webhookDeliveries).values([
        bad("203.0.113.9", 1, minutesAgo(50)),
        bad("203.0.113.9", 532, minutesAgo(5), "bad_signature|203.0.113.9|x"),
        ...["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"].map((a, i) => bad(a, 10 - i, minutesAgo(10))),
        bad("198.51.100.5", 2, minutesAgo(10)),
        bad(null, 40, minutesAgo(1), "bad_signature|other|x"),
        // Not counted: older than an hour, or not a bad signature.
        bad("203.0.113.9", 1_000, minutesAgo(61)),
        { outcome: "too_large" as const, httpStatus: 413, remoteAddr: "203.0.113.9", count: 900, receivedAt: minutesAgo(2) },
        { outcome: "bad_payload" as const, httpStatus: 400, remoteAddr: "203.0.113.9", receivedAt: minutesAgo(2) },
      ]);
      expect(await recentBadSignatures(database.db, NOW)).toEqual({
        total: 533 + 10 + 9 + 8 + 7 + 2 + 40,
        sources: [
          { addr: "203.0.113.9", count: 533 },
          { addr: null, count: 40 },
          { addr: "198.51.100.1", count: 10 },
          { addr: "198.51.100.2", count: 9 },
          { addr: "198.51.100.3", count: 8 },
        ],
      });
    });

    it("is zero with no sources when nothing bad arrived", async () => {
      await fill(5);
      expect(await recentBadSignatures(database.db, NOW)).toEqual({ total: 0, sources: [] });
    });

    it("counts a flood folded by the rejection log in full", async () => {
      const log = createRejectionLog(database.db, { now: () => minutesAgo(3).getTime(), log: () => undefined, flushMs: 60_000 });
      for (let i = 0; i < 300; i++) log.note({ outcome: "bad_signature", httpStatus: 401, remoteAddr: "203.0.113.50", detail: "signature mismatch" });
      await log.flush();
      expect(await recentBadSignatures(database.db, NOW)).toEqual({ total: 300, sources: [{ addr: "203.0.113.50", count: 300 }] });
    });
  });

  describe("listDeliveries", () => {
    it("pages newest first and returns each row's count", async () => {
      await fill(120);
      await database.db.insert(webhookDeliveries).values({
        outcome: "bad_signature",
        httpStatus: 401,
        remoteAddr: "203.0.113.9",
        count: 532,
        foldKey: "k",
        receivedAt: new Date(NOW.getTime() + 1_000),
      });
      const first = await listDeliveries(database.db, 1);
      expect(first).toMatchObject({ page: 1, total: 121, totalCapped: false });
      expect(first.items).toHaveLength(DELIVERY_PAGE_SIZE);
      expect(first.items[0]).toMatchObject({
        outcome: "bad_signature",
        count: 532,
        body: null,
        // A folded row's sentence is made from its count when it is read.
        detail: "532 more from this source this hour (folded)",
        receivedAt: new Date(NOW.getTime() + 1_000).toISOString(),
      });
      expect(first.items[1]).toMatchObject({ outcome: "recorded", count: 1, receivedAt: NOW.toISOString() });
      expect(Object.keys(first.items[0] ?? {})).not.toContain("foldKey");
      const last = await listDeliveries(database.db, 3);
      expect(last.items).toHaveLength(21);
      expect(last.items.at(-1)?.receivedAt).toBe(new Date(NOW.getTime() - 119_000).toISOString());
    });

    it(`counts at most ${DELIVERY_COUNT_CAP + 1} rows and serves no page past ${DELIVERY_MAX_PAGE}`, async () => {
      await fill(DELIVERY_COUNT_CAP + 500);
      const page = await listDeliveries(database.db, 100_000);
      expect(page).toMatchObject({ page: DELIVERY_MAX_PAGE, total: DELIVERY_COUNT_CAP, totalCapped: true });
      expect(page.items).toHaveLength(DELIVERY_PAGE_SIZE);
      // The capped page is the last of the newest 10,000 rows: offset 9,950.
      expect(page.items[0]?.receivedAt).toBe(new Date(NOW.getTime() - (DELIVERY_MAX_PAGE - 1) * DELIVERY_PAGE_SIZE * 1_000).toISOString());
      expect((await listDeliveries(database.db, 0)).page).toBe(1);
    });

    it("filters by outcome as people ask it: accepted, bad signature, rejected (every refusal of a signed message)", async () => {
      await fill(3);
      await fill(2, "bad_signature");
      await database.db.insert(webhookDeliveries).values([
        { outcome: "too_large", httpStatus: 413, receivedAt: minutesAgo(1) },
        { outcome: "bad_payload", httpStatus: 400, receivedAt: minutesAgo(2) },
        { outcome: "unknown_type", httpStatus: 200, receivedAt: minutesAgo(3) },
        { outcome: "duplicate", httpStatus: 200, receivedAt: minutesAgo(4) },
      ]);
      const outcomes = async (filter: Parameters<typeof listDeliveries>[2]) => {
        const page = await listDeliveries(database.db, 1, filter);
        return { total: page.total, outcomes: [...new Set(page.items.map((d) => d.outcome))].sort() };
      };
      expect(await outcomes("accepted")).toEqual({ total: 3, outcomes: ["recorded"] });
      expect(await outcomes("bad_signature")).toEqual({ total: 2, outcomes: ["bad_signature"] });
      expect(await outcomes("rejected")).toEqual({ total: 3, outcomes: ["bad_payload", "too_large", "unknown_type"] });
      expect(await outcomes("duplicate")).toEqual({ total: 1, outcomes: ["duplicate"] });
      expect((await outcomes(null)).total).toBe(9);
      expect([deliveryFilterParam("rejected"), deliveryFilterParam("recorded"), deliveryFilterParam(["accepted"]), deliveryFilterParam(undefined)]).toEqual([
        "rejected",
        null,
        null,
        null,
      ]);
    });

    it("reports an exact total of exactly the cap as not capped", async () => {
      await fill(DELIVERY_COUNT_CAP);
      expect(await listDeliveries(database.db, 1)).toMatchObject({ total: DELIVERY_COUNT_CAP, totalCapped: false });
    });
  });
});

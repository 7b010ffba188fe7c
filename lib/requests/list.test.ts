import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { requestListFromSearch } from "@/lib/client/requests/schemas";
import { campaignRows, campaigns, fundRequests } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { requestsCsv } from "./csv";
import { campaignRowKey, clientKey } from "./keys";
import { readRequestPage, requestsForCsv } from "./list";

const LAGOS = "Africa/Lagos";
const A = "0a0a0a0a-0000-4000-8000-00000000000a";
const B = "0b0b0b0b-0000-4000-8000-00000000000b";
type Status = "sending" | "pending" | "accepted" | "declined" | "failed";

// Each request: its reference, when it was made (UTC), status, amount, and how it was sent.
const REQUESTS: [ref: string, createdAt: string, status: Status, amount: string, key: string | null][] = [
  ["feb28-late", "2026-02-28T22:59:00Z", "pending", "0.10", clientKey("k-feb28-late")], // 28 Feb 23:59 in Lagos
  ["mar01-early", "2026-02-28T23:00:00Z", "accepted", "20.50", campaignRowKey(A, 1)], // 1 Mar 00:00 in Lagos
  ["mar10-noon", "2026-03-10T12:00:00Z", "declined", "30.25", campaignRowKey(A, 2)],
  ["mar10-late", "2026-03-10T22:59:00Z", "failed", "0.10", campaignRowKey(B, 1)], // 10 Mar 23:59 in Lagos
  ["mar11-early", "2026-03-10T23:00:00Z", "pending", "0.20", null], // 11 Mar 00:00 in Lagos
  ["mar31-last", "2026-03-31T22:59:59Z", "accepted", "100.00", clientKey("k-mar31-last")],
  // April in Lagos; its campaign row is still claimed (the send has not returned), so the row names no request yet.
  ["apr01-sending", "2026-03-31T23:00:00Z", "sending", "5.00", campaignRowKey(A, 3)],
];

const filter = (q: Record<string, string>) => requestListFromSearch((k) => q[k]);

describe.each(dbTargets())("the requests list's filters on $name", (target) => {
  const database = useTestDatabase(target);

  beforeAll(async () => {
    const db = database.db;
    await db.execute(sql`delete from campaign_rows`);
    await db.execute(sql`delete from campaigns`);
    await db.execute(sql`delete from fund_requests`);
    await db.insert(campaigns).values([
      { id: A, name: "March dues", status: "sending" },
      { id: B, name: "Levy", status: "done" },
    ]);
    const inserted = await db
      .insert(fundRequests)
      .values(
        REQUESTS.map(([reference, createdAt, status, amount, idempotencyKey]) => ({
          reference,
          idempotencyKey,
          tag: reference.startsWith("mar10") ? "bola.ade" : "ada.obi",
          amount,
          description: `Request ${reference}`,
          status,
          createdAt: new Date(createdAt),
        })),
      )
      .returning({ id: fundRequests.id, reference: fundRequests.reference });
    const id = (reference: string) => inserted.find((r) => r.reference === reference)?.id ?? null;
    const row = (campaignId: string, n: number, fundRequestId: string | null, status: "sent" | "claimed") => ({
      campaignId,
      row: n,
      tag: "t.t",
      amountText: "1",
      description: "d",
      status,
      fundRequestId,
    });
    await db
      .insert(campaignRows)
      .values([row(A, 1, id("mar01-early"), "sent"), row(A, 2, id("mar10-noon"), "sent"), row(A, 3, null, "claimed"), row(B, 1, id("mar10-late"), "sent")]);
  });

  const refs = async (q: Record<string, string>) => (await readRequestPage(database.db, filter(q), LAGOS)).items.map((r) => r.reference);

  it("counts a day in Lagos: 22:59 UTC is still that day, 23:00 UTC is the next", async () => {
    expect(await refs({ from: "2026-02-28", to: "2026-02-28" })).toEqual(["feb28-late"]);
    expect(await refs({ from: "2026-03-01", to: "2026-03-01" })).toEqual(["mar01-early"]);
    expect(await refs({ from: "2026-03-10", to: "2026-03-10" })).toEqual(["mar10-late", "mar10-noon"]);
    expect(await refs({ from: "2026-03-11", to: "2026-03-11" })).toEqual(["mar11-early"]);
  });

  it("a month is the calendar month in Lagos (newest first), and either end may be open", async () => {
    expect(await refs({ from: "2026-03-01", to: "2026-03-31" })).toEqual(["mar31-last", "mar11-early", "mar10-late", "mar10-noon", "mar01-early"]);
    expect(await refs({ from: "2026-04-01" })).toEqual(["apr01-sending"]);
    expect(await refs({ to: "2026-02-28" })).toEqual(["feb28-late"]);
  });

  it("filters by campaign through its rows, and 'single requests only' leaves out every campaign's, sent or still sending", async () => {
    expect(await refs({ campaign: A })).toEqual(["mar10-noon", "mar01-early"]);
    expect(await refs({ campaign: B.toUpperCase() })).toEqual(["mar10-late"]);
    expect(await refs({ campaign: "none" })).toEqual(["mar31-last", "mar11-early", "feb28-late"]);
    expect(await refs({ campaign: "0c0c0c0c-0000-4000-8000-00000000000c" })).toEqual([]);
    // Not a campaign id: no campaign filter at all.
    expect(await refs({ campaign: "not-a-uuid" })).toHaveLength(REQUESTS.length);
  });

  it("combines the campaign with days, status and tag", async () => {
    expect(await refs({ campaign: A, from: "2026-03-01", to: "2026-03-01" })).toEqual(["mar01-early"]);
    expect(await refs({ campaign: A, status: "declined" })).toEqual(["mar10-noon"]);
    expect(await refs({ campaign: "none", tag: "bola" })).toEqual([]);
    expect(await refs({ tag: "bola", from: "2026-03-10", to: "2026-03-10", status: "failed" })).toEqual(["mar10-late"]);
  });

  it("totals count and amount per status for the whole filter, exactly", async () => {
    const march = await readRequestPage(database.db, filter({ from: "2026-03-01", to: "2026-03-31" }), LAGOS);
    expect(march.total).toBe(5);
    expect(march.totals).toEqual({
      count: 5,
      amount: "151.05",
      byStatus: {
        sending: { count: 0, amount: "0.00" },
        pending: { count: 1, amount: "0.20" },
        accepted: { count: 2, amount: "120.50" },
        declined: { count: 1, amount: "30.25" },
        failed: { count: 1, amount: "0.10" },
        unknown: { count: 0, amount: "0.00" },
      },
    });
    // 0.10 + 0.20 is 0.30 here, never 0.30000000000000004.
    const pending = await readRequestPage(database.db, filter({ status: "pending" }), LAGOS);
    expect(pending.totals).toMatchObject({
      count: 2,
      amount: "0.30",
      byStatus: { pending: { count: 2, amount: "0.30" }, accepted: { count: 0, amount: "0.00" } },
    });
    const none = await readRequestPage(database.db, filter({ campaign: B, status: "accepted" }), LAGOS);
    expect(none.totals).toMatchObject({ count: 0, amount: "0.00" });
    expect(none.items).toEqual([]);
  });

  it("the CSV follows the same filter, names each request's campaign and writes times in Lagos", async () => {
    const items = await requestsForCsv(database.db, filter({ campaign: A, page: "2" }), LAGOS);
    expect(items.map((r) => [r.reference, r.campaign?.name])).toEqual([
      ["mar10-noon", "March dues"],
      ["mar01-early", "March dues"],
    ]);
    const lines = requestsCsv(items, LAGOS).split("\r\n");
    expect(lines[0]).toMatch(/^created_at,request_id,reference,business_reference,tag,name,amount,status,description,campaign,/);
    expect(lines[2]).toMatch(/^2026-03-01T00:00:00\+01:00,,mar01-early,,ada\.obi,,20\.50,accepted,Request mar01-early,March dues,/);
    const single = await requestsForCsv(database.db, filter({ campaign: "none", from: "2026-02-28", to: "2026-02-28" }), LAGOS);
    expect(single.map((r) => [r.reference, r.campaign])).toEqual([["feb28-late", null]]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";

import { paymentFilterFromSearch, type PaymentFilter } from "@/lib/client/payments/filters";
import { payments } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { getPayment, paymentsForCsv, readPaymentPage } from "./query";

// Each filter of the payments list (GET /api/payments, its CSV and the payments page) finds the payments it
// names, with their totals: positive cases, so a filter that matches nothing, or everything, fails here.

const ZONE = "Africa/Lagos";

type Verification = "unverified" | "verified" | "failed";

function payment(uuid: string, over: { tag: string; name: string; description: string; verification: Verification; receivedAt: string; amount: string }) {
  return {
    uuid,
    type: "peer-transfer.success",
    amount: over.amount,
    actualAmount: over.amount,
    settledAmount: over.amount,
    fees: "0.00",
    description: over.description,
    customerName: over.name,
    customerTag: over.tag,
    customerEmail: `${over.tag}@example.com`,
    customerPhone: "+2348031234567",
    peerTag: over.tag,
    verification: over.verification,
    receivedAt: new Date(over.receivedAt),
  };
}

// Four payments on three Lagos days. 2026-02-01T23:30Z is already 2 February in Lagos (UTC+1).
const ROWS = [
  payment("0a000000-0000-4000-8000-000000000001", {
    tag: "ada.obi",
    name: "Ada Obi",
    description: "Estate dues",
    verification: "verified",
    receivedAt: "2026-02-01T10:00:00Z",
    amount: "100.00",
  }),
  payment("0a000000-0000-4000-8000-000000000002", {
    tag: "bola.ade",
    name: "Bola Ade",
    description: "School fees",
    verification: "unverified",
    receivedAt: "2026-02-01T23:30:00Z",
    amount: "250.50",
  }),
  payment("0a000000-0000-4000-8000-000000000003", {
    tag: "chidi.eze",
    name: "Chidi Eze",
    description: "Estate dues",
    verification: "failed",
    receivedAt: "2026-02-03T12:00:00Z",
    amount: "75.25",
  }),
  payment("0a000000-0000-4000-8000-0000000000f4", {
    tag: "ada.obi",
    name: "Ada Obi",
    description: "Water bill",
    verification: "verified",
    receivedAt: "2026-02-03T18:00:00Z",
    amount: "10.00",
  }),
];
const uuidOf = (i: number) => ROWS[i - 1]?.uuid ?? "";

function filter(search: Record<string, string>): PaymentFilter {
  return paymentFilterFromSearch((name) => search[name]);
}

describe.each(dbTargets())("payment list filters on $name", (target) => {
  const database = useTestDatabase(target);
  beforeAll(async () => {
    await database.db.insert(payments).values(ROWS);
  });

  const cases: { name: string; search: Record<string, string>; expected: number[]; amount: string }[] = [
    { name: "verified=verified", search: { verified: "verified" }, expected: [4, 1], amount: "110.00" },
    { name: "verified=unverified", search: { verified: "unverified" }, expected: [2], amount: "250.50" },
    { name: "verified=failed", search: { verified: "failed" }, expected: [3], amount: "75.25" },
    { name: "tag (exact, a leading @ ignored)", search: { tag: "@ada.obi" }, expected: [4, 1], amount: "110.00" },
    { name: "q on the payer's name", search: { q: "bola" }, expected: [2], amount: "250.50" },
    { name: "q on the tag", search: { q: "chidi.e" }, expected: [3], amount: "75.25" },
    { name: "q on the description", search: { q: "estate" }, expected: [3, 1], amount: "175.25" },
    { name: "q on the uuid", search: { q: "0000000000f4" }, expected: [4], amount: "10.00" },
    { name: "from (a Lagos day)", search: { from: "2026-02-02" }, expected: [4, 3, 2], amount: "335.75" },
    { name: "to (a Lagos day, inclusive)", search: { to: "2026-02-01" }, expected: [1], amount: "100.00" },
    { name: "from and to", search: { from: "2026-02-02", to: "2026-02-02" }, expected: [2], amount: "250.50" },
    {
      name: "every filter at once",
      search: { verified: "verified", tag: "ada.obi", q: "water", from: "2026-02-03", to: "2026-02-03" },
      expected: [4],
      amount: "10.00",
    },
  ];

  it.each(cases)("$name finds its payments, newest first, with their count and totals", async ({ search, expected, amount }) => {
    const f = filter(search);
    const page = await readPaymentPage(database.db, f, "admin", ZONE);
    expect(expected.length).toBeGreaterThan(0);
    expect(page.items.map((p) => p.uuid)).toEqual(expected.map(uuidOf));
    expect(page.total).toBe(expected.length);
    expect(page.totals).toMatchObject({ count: expected.length, amount });
    // The CSV download takes the same filter.
    expect((await paymentsForCsv(database.db, f, "admin", ZONE)).map((p) => p.uuid)).toEqual(expected.map(uuidOf));
  });

  it("with no filter finds every payment", async () => {
    const page = await readPaymentPage(database.db, filter({}), "admin", ZONE);
    expect(page.items).toHaveLength(ROWS.length);
    expect(page.totals).toMatchObject({ count: ROWS.length, amount: "435.75" });
  });

  it("shows a viewer e-mail and phone masked in the list, the CSV rows and one payment; staff who may send see them whole", async () => {
    const raw = { email: "ada.obi@example.com", phone: "+2348031234567" };
    const masked = { email: "a•••@example.com", phone: "•••••••4567" };
    const f = filter({ tag: "ada.obi" });
    const viewer = [
      ...(await readPaymentPage(database.db, f, "viewer", ZONE)).items,
      ...(await paymentsForCsv(database.db, f, "viewer", ZONE)),
      await getPayment(database.db, uuidOf(1), "viewer"),
    ];
    expect(viewer).toHaveLength(5);
    for (const p of viewer) expect(p?.customer).toMatchObject(masked);
    for (const role of ["admin", "operator"] as const) expect((await getPayment(database.db, uuidOf(1), role))?.customer).toMatchObject(raw);
  });
});

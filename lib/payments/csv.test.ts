import { describe, expect, it } from "vitest";

import { csvFilename } from "@/lib/csv/table";

import { paymentsCsv } from "./csv";
import type { PaymentView } from "./view";

const payment: PaymentView = {
  uuid: "0b4f3c1e-1111-4222-8333-444455556666",
  type: "peer-transfer.success",
  amount: "1234.50",
  actualAmount: "1234.50",
  settledAmount: "1200.00",
  fees: "34.50",
  description: 'Rent, "March"\nsecond line',
  customer: { name: '=HYPERLINK("http://evil")', tag: "ada.obi", email: "a•••@example.com", phone: null, avatar: null },
  verification: "failed",
  verificationError: "-1 mismatch",
  verifiedAt: null,
  requestId: "42",
  businessReference: "INV-0042",
  linkNote: null,
  linkConfirmed: true,
  receivedAt: "2025-03-01T10:00:00.000Z",
  recordedByHand: null,
};

describe("csv", () => {
  it("writes a header and one CRLF row per payment", () => {
    const text = paymentsCsv([payment], "Africa/Lagos");
    const [header, row] = text.split("\r\n");
    expect(header?.startsWith("received_at,uuid,type,customer_name")).toBe(true);
    // Times in TIMEZONE with its offset: the same instant as the stored 10:00 UTC.
    expect(row?.startsWith("2025-03-01T11:00:00+01:00,0b4f3c1e-1111-4222-8333-444455556666,")).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain('"Rent, ""March""\nsecond line"');
    expect(text).toContain(",'-1 mismatch,");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n")).toHaveLength(3);
  });

  it("names the file by the day in TIMEZONE", () => {
    expect(csvFilename("payments", "Africa/Lagos", new Date("2025-03-01T22:59:59Z"))).toBe("payments-2025-03-01.csv");
    expect(csvFilename("payments", "Africa/Lagos", new Date("2025-03-01T23:00:00Z"))).toBe("payments-2025-03-02.csv");
    expect(csvFilename("payments", "UTC", new Date("2025-03-01T23:59:59Z"))).toBe("payments-2025-03-01.csv");
  });
});

import { describe, expect, it } from "vitest";

import { csvFilename, paymentsCsv } from "./csv";
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
  linkNote: null,
  linkConfirmed: true,
  receivedAt: "2025-03-01T10:00:00.000Z",
};

describe("csv", () => {
  it("writes a header and one CRLF row per payment", () => {
    const text = paymentsCsv([payment]);
    const [header] = text.split("\r\n");
    expect(header?.startsWith("received_at,uuid,type,customer_name")).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain('"Rent, ""March""\nsecond line"');
    expect(text).toContain(",'-1 mismatch,");
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n")).toHaveLength(3);
  });

  it("names the file by the UTC day", () => {
    expect(csvFilename(new Date("2025-03-01T23:59:59Z"))).toBe("payments-2025-03-01.csv");
  });
});

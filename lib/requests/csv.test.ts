import { describe, expect, it } from "vitest";

import { requestsCsv } from "./csv";
import type { FundRequestView } from "./view";

const request: FundRequestView = {
  requestId: "77",
  reference: "ref-77",
  tag: "ada.obi",
  amount: "1500.50",
  description: "=SUM(A1:A9) dues, March",
  businessReference: "INV-0042",
  status: "accepted",
  requestedBy: null,
  requestedSentTo: { name: "Ada Obi", tag: "ada.obi" },
  createdBy: { id: "00000000-0000-4000-8000-000000000001", name: "Funmi" },
  createdAt: "2026-03-10T22:59:00.000Z",
  updatedAt: "2026-03-10T23:10:00.000Z",
  paymentUuid: "0b4f3c1e-1111-4222-8333-444455556666",
  error: null,
  local: true,
  decidedAt: "2026-03-10T23:05:00.000Z",
  campaign: { id: "00000000-0000-4000-8000-000000000002", name: "March dues" },
};

describe("requests csv", () => {
  it("writes the header and one formula-guarded row, times in TIMEZONE with its offset", () => {
    const text = requestsCsv(
      [request, { ...request, requestId: null, campaign: null, decidedAt: null, createdBy: null, businessReference: null }],
      "Africa/Lagos",
    );
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "created_at,request_id,reference,business_reference,tag,name,amount,status,description,campaign,sent_by,decided_at,payment_uuid,error",
    );
    expect(lines[1]).toBe(
      `2026-03-10T23:59:00+01:00,77,ref-77,INV-0042,ada.obi,Ada Obi,1500.50,accepted,"'=SUM(A1:A9) dues, March",March dues,Funmi,2026-03-11T00:05:00+01:00,0b4f3c1e-1111-4222-8333-444455556666,`,
    );
    expect(lines[2]).toBe(
      `2026-03-10T23:59:00+01:00,,ref-77,,ada.obi,Ada Obi,1500.50,accepted,"'=SUM(A1:A9) dues, March",,,,0b4f3c1e-1111-4222-8333-444455556666,`,
    );
    expect(lines).toHaveLength(4);
    expect(text.endsWith("\r\n")).toBe(true);
  });
});

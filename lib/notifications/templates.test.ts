import { describe, expect, it } from "vitest";

import { EVENT_TYPES } from "@/lib/client/events/catalogue";

import { describeEvent } from "./content";
import { digestDay, dayLabel } from "./digest";
import { renderDigestEmail, renderNotificationEmail } from "./render";

// A payer as the service describes them, bvn and contacts included: none of those may reach a notification or e-mail.
const PAYER = { name: "Ada Obi", tag: "ada.obi", email: "ada@example.test", phone: "+2348012345678", bvn: "22345678901", avatar: null };
const DATA: Record<string, unknown> = {
  uuid: "0b4f3c1e-1111-4222-8333-444455556666",
  amount: "5000.00",
  actualAmount: "4990.50",
  settledAmount: "4890.50",
  fees: "100.00",
  customer: PAYER,
  requestedSentTo: PAYER,
  bvn: PAYER.bvn,
  tag: PAYER.tag,
  requestId: "9876",
  description: "November dues",
  id: "c0ffee00-1111-4222-8333-444455556666",
  name: "November dues",
  planId: "p-1",
  planName: "Estate dues",
  period: "2026-11",
  kind: "unlinked_payment",
  note: "Checked with the payer",
  doNotAsk: true,
};

describe("notification content and templates", () => {
  it("never carries a bvn, an e-mail address or a phone number, in any template, HTML or text", async () => {
    for (const type of EVENT_TYPES) {
      const content = describeEvent({ type, data: DATA, createdAt: "2026-11-27T23:30:00.000Z" }, "Africa/Lagos");
      const email = await renderNotificationEmail({
        businessName: "Fundboard",
        title: content.title,
        lines: content.lines,
        url: `https://dash.example.test${content.link}`,
        preferencesUrl: "https://dash.example.test/account#notifications",
      });
      for (const out of [content.title, ...content.lines, email.html, email.text]) {
        expect(out, type).not.toContain(PAYER.bvn);
        expect(out, type).not.toContain(PAYER.email);
        expect(out, type).not.toContain(PAYER.phone);
      }
    }
    const digest = await renderDigestEmail({
      businessName: "Fundboard",
      dayLabel: dayLabel("2026-11-27"),
      book: { asked: "NGN 10,000.00", paid: "NGN 4,990.50", fees: "NGN 100.00", settled: "NGN 4,890.50", unexplained: null },
      openExceptions: 2,
      declines: 1,
      topPayers: [{ name: PAYER.name, tag: PAYER.tag, collected: "NGN 4,890.50" }],
      items: [{ title: "NGN 4,990.50 received from Ada Obi (@ada.obi)", url: "https://dash.example.test/payments/x" }],
      url: "https://dash.example.test/reports?from=2026-11-27&to=2026-11-27",
      preferencesUrl: "https://dash.example.test/account#notifications",
    });
    for (const out of [digest.html, digest.text]) {
      expect(out).not.toContain(PAYER.bvn);
      // Plain text sets headings in capitals.
      expect(out.toLowerCase()).toContain("ngn 4,990.50");
      expect(out.toLowerCase()).toContain("friday, 27 november 2026");
    }
  });

  it("says amounts in the service's format (the amount actually paid, not the amount asked) and times in the dashboard's zone", async () => {
    const content = describeEvent({ type: "payment.received", data: DATA, createdAt: "2026-11-27T23:30:00.000Z" }, "Africa/Lagos");
    expect(content.title).toBe("NGN 4,990.50 received from Ada Obi (@ada.obi)");
    expect(content.title).not.toContain("5,000.00");
    // 23:30 UTC is 00:30 the next day in Lagos.
    expect(content.lines.join(" ")).toContain("28 Nov");
    expect(content.link).toBe(`/payments/${DATA.uuid as string}`);
    const email = await renderNotificationEmail({
      businessName: "Fundboard",
      title: content.title,
      lines: content.lines,
      url: "https://d.test/p",
      preferencesUrl: "https://d.test/a",
    });
    expect(email.subject).toBe(content.title);
    expect(email.text.toLowerCase()).toContain("ngn 4,990.50 received from ada obi (@ada.obi)");
    expect(email.html).toContain('href="https://d.test/p"');
  });

  it("covers the Lagos day before the digest's morning: 23:30 UTC on the 27th is 00:30 on the 28th in Lagos", () => {
    // Sent 08:00 Lagos on the 28th (07:00 UTC): yesterday is the 27th, in either zone.
    expect(digestDay(new Date("2026-11-28T07:00:00Z"), "Africa/Lagos")).toBe("2026-11-27");
    // At 23:30 UTC on the 27th it is already the 28th in Lagos: its yesterday is the 27th, where UTC's would be the 26th.
    expect(digestDay(new Date("2026-11-27T23:30:00Z"), "Africa/Lagos")).toBe("2026-11-27");
    expect(digestDay(new Date("2026-11-27T23:30:00Z"), "UTC")).toBe("2026-11-26");
    expect(dayLabel("2026-11-27")).toBe("Friday, 27 November 2026");
  });
});

import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import { newEventId } from "@/lib/events/id";

// "Send a test event" (docs/architecture.md "Outgoing webhooks"): a sample of each type in its public shape, marked
// `test: true` at the top, with made-up ids no real object has.

const PAYER = { name: "Test Payer", tag: "test.payer", email: null, phone: null, avatar: null };
const PAYMENT = {
  uuid: "00000000-0000-4000-8000-000000000000",
  type: "peer-transfer.success",
  amount: "5000.00",
  actualAmount: "5000.00",
  settledAmount: "4900.00",
  fees: "100.00",
  description: "Test payment",
  customer: PAYER,
  verification: "verified",
  requestId: "1000000001",
  receivedAt: "2026-01-01T09:00:00.000Z",
};
const REQUEST = { requestId: "1000000001", reference: "fb_test", tag: PAYER.tag, amount: "5000.00", description: "Test request", status: "pending" };

const DATA: Record<EventType, Record<string, unknown>> = {
  "payment.received": PAYMENT,
  "payment.verified": PAYMENT,
  "payment.verification_failed": { ...PAYMENT, verification: "failed", verificationError: "Test: the verify host did not confirm it." },
  "request.created": REQUEST,
  "request.accepted": { ...REQUEST, status: "accepted", paymentUuid: PAYMENT.uuid },
  "request.declined": { ...REQUEST, status: "declined" },
  "request.failed": { ...REQUEST, status: "failed", error: "Test: the service refused it." },
  "campaign.started": { id: "00000000-0000-4000-8000-000000000001", name: "Test campaign", status: "sending" },
  "campaign.finished": { id: "00000000-0000-4000-8000-000000000001", name: "Test campaign", status: "done" },
  "plan.period_made": { planId: "00000000-0000-4000-8000-000000000002", planName: "Test plan", period: "2026-01", campaignId: null },
  "plan.period_missed": { planId: "00000000-0000-4000-8000-000000000002", planName: "Test plan", period: "2026-01", reason: "Test: paused." },
  "exception.opened": { id: "00000000-0000-4000-8000-000000000003", kind: "unlinked_payment", status: "open", tag: PAYER.tag, amount: "5000.00" },
  "exception.resolved": { id: "00000000-0000-4000-8000-000000000003", kind: "unlinked_payment", status: "resolved", note: "Test" },
  "payer.updated": { tag: PAYER.tag, doNotAsk: true, note: "Test" },
  "pay_page.submitted": { pageId: "00000000-0000-4000-8000-000000000004", tag: PAYER.tag, amount: "5000.00" },
};

export function sampleEvent(type: EventType, now: Date = new Date()): BusinessEvent {
  return { id: newEventId(now.getTime()), type, createdAt: now.toISOString(), data: { test: true, ...DATA[type] } };
}

// The business events' public names (docs/architecture.md "Events"): used by notifications, outgoing webhooks, the
// API's event list and the pages that let a person choose among them.
export const EVENT_TYPES = [
  "payment.received",
  "payment.verified",
  "payment.verification_failed",
  "request.created",
  "request.accepted",
  "request.declined",
  "request.failed",
  "campaign.started",
  "campaign.finished",
  "plan.period_made",
  "plan.period_missed",
  "exception.opened",
  "exception.resolved",
  "payer.updated",
  "pay_page.submitted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event as every consumer and the API see it. */
export interface BusinessEvent<T extends object = Record<string, unknown>> {
  id: string;
  type: EventType;
  createdAt: string;
  data: T;
}

import type { Role } from "@/lib/client/auth/roles";
import { EVENT_TYPES, type EventType } from "@/lib/client/events/catalogue";

// What a person is told, per event type (docs/architecture.md "Notifications"): shared by the account page's form,
// `GET/PUT /api/me/notifications` and the notifications consumer.

/** off · in the dashboard · dashboard + e-mail at once · dashboard + e-mail in the daily digest. */
export const CHANNELS = ["off", "dashboard", "email", "digest"] as const;
export type Channel = (typeof CHANNELS)[number];

export const CHANNEL_LABELS: Record<Channel, string> = {
  off: "Off",
  dashboard: "In the dashboard",
  email: "Dashboard and e-mail at once",
  digest: "Dashboard and the daily digest",
};

export const EVENT_LABELS: Record<EventType, string> = {
  "payment.received": "A payment arrived",
  "payment.verified": "A payment was verified",
  "payment.verification_failed": "A payment failed verification",
  "request.created": "A request was sent",
  "request.accepted": "A request was accepted",
  "request.declined": "A request was declined",
  "request.failed": "A request could not be sent",
  "campaign.started": "A campaign started",
  "campaign.finished": "A campaign finished",
  "plan.period_made": "A plan period was made",
  "plan.period_missed": "A plan period was missed",
  "exception.opened": "An exception opened",
  "exception.resolved": "An exception was resolved",
  "payer.updated": "A payer was marked or cleared",
  "pay_page.submitted": "A pay page was submitted",
};

export interface NotificationPreferences {
  choices: Record<EventType, Channel>;
  /** `payment.received` only at or above this many naira ("5000.00"); null: every payment. */
  paymentThreshold: string | null;
  /** The daily digest at 08:00 in the dashboard's time zone. */
  digest: boolean;
}

const SENDER_EMAIL: readonly EventType[] = ["exception.opened", "plan.period_missed", "campaign.finished"];

/** A role's defaults: admins and operators are e-mailed what needs a person, shown payments; everyone gets the digest. */
export function defaultPreferences(role: Role): NotificationPreferences {
  const choices = Object.fromEntries(EVENT_TYPES.map((t) => [t, "off"])) as Record<EventType, Channel>;
  if (role !== "viewer") {
    for (const t of SENDER_EMAIL) choices[t] = "email";
    choices["payment.received"] = "dashboard";
  }
  return { choices, paymentThreshold: null, digest: true };
}

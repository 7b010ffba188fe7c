import type { BusinessEvent, EventType } from "@/lib/client/events/catalogue";
import { KIND_LABELS } from "@/lib/client/exceptions/view";
import { formatMajor } from "@/lib/client/money";
import { formatTime } from "@/lib/client/time/format";

// What a notification says about an event (docs/architecture.md "Notifications"): a title, a few lines and the
// dashboard page it points to. Read from the event's public shape field by field, so nothing else (a payer's
// contacts, a bvn should one ever reach an event) is ever copied into a notification or an e-mail.

export interface NotificationContent {
  title: string;
  lines: string[];
  /** A path on the dashboard. */
  link: string;
}

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null => {
  const value = data[key];
  return typeof value === "string" && value.length > 0 ? value : typeof value === "number" ? String(value) : null;
};
const obj = (data: Data, key: string): Data => {
  const value = data[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Data) : {};
};
const naira = (value: string | null): string => (value === null ? "an amount" : formatMajor("NGN", value));
const who = (name: string | null, tag: string | null): string => (tag ? (name ? `${name} (@${tag})` : `@${tag}`) : (name ?? "someone"));
const path = (base: string, id: string | null): string => (id ? `${base}/${encodeURIComponent(id)}` : base);

export function describeEvent(event: Pick<BusinessEvent, "type" | "data" | "createdAt">, timeZone: string): NotificationContent {
  const d = event.data as Data;
  const at = formatTime(event.createdAt, timeZone);
  const describe: Record<EventType, () => NotificationContent> = {
    "payment.received": () => {
      const customer = obj(d, "customer");
      return {
        title: `${naira(text(d, "actualAmount"))} received from ${who(text(customer, "name"), text(customer, "tag"))}`,
        lines: [`Settled ${naira(text(d, "settledAmount"))} after ${naira(text(d, "fees"))} fees.`, `Received ${at}.`],
        link: path("/payments", text(d, "uuid")),
      };
    },
    "payment.verified": () => ({
      title: `Payment of ${naira(text(d, "actualAmount"))} verified`,
      lines: [`The verify host confirmed it ${at}.`],
      link: path("/payments", text(d, "uuid")),
    }),
    "payment.verification_failed": () => ({
      title: `Payment of ${naira(text(d, "actualAmount"))} failed verification`,
      lines: [text(d, "verificationError") ?? "The verify host did not confirm it.", `Checked ${at}.`],
      link: path("/payments", text(d, "uuid")),
    }),
    "request.created": () => ({
      title: `Request for ${naira(text(d, "amount"))} sent to @${text(d, "tag") ?? "?"}`,
      lines: [text(d, "description") ?? "", `Sent ${at}.`].filter(Boolean),
      link: path("/requests", text(d, "requestId")),
    }),
    "request.accepted": () => ({
      title: `@${text(d, "tag") ?? "?"} accepted a request for ${naira(text(d, "amount"))}`,
      lines: [text(d, "description") ?? "", `Accepted ${at}.`].filter(Boolean),
      link: path("/requests", text(d, "requestId")),
    }),
    "request.declined": () => ({
      title: `@${text(d, "tag") ?? "?"} declined a request for ${naira(text(d, "amount"))}`,
      lines: [text(d, "description") ?? "", `Declined ${at}.`].filter(Boolean),
      link: path("/requests", text(d, "requestId")),
    }),
    "request.failed": () => ({
      title: `A request for ${naira(text(d, "amount"))} to @${text(d, "tag") ?? "?"} could not be sent`,
      lines: [text(d, "error") ?? "The service refused it.", `${at}.`],
      link: "/requests",
    }),
    "campaign.started": () => ({
      title: `Campaign "${text(d, "name") ?? "?"}" started`,
      lines: [`Started ${at}.`],
      link: path("/campaigns", text(d, "id")),
    }),
    "campaign.finished": () => {
      const counts = obj(d, "counts");
      const done = [text(counts, "accepted") && `${text(counts, "accepted")} accepted`, text(counts, "declined") && `${text(counts, "declined")} declined`]
        .filter(Boolean)
        .join(", ");
      return {
        title: `Campaign "${text(d, "name") ?? "?"}" ${text(d, "status") === "cancelled" ? "was cancelled" : "finished"}`,
        lines: [done ? `So far: ${done}.` : "", `Finished ${at}.`].filter(Boolean),
        link: path("/campaigns", text(d, "id")),
      };
    },
    "plan.period_made": () => ({
      title: `Plan "${text(d, "planName") ?? "?"}": period ${text(d, "period") ?? ""} made`,
      lines: [`Its requests go out now (${at}).`],
      link: path("/plans", text(d, "planId")),
    }),
    "plan.period_missed": () => ({
      title: `Plan "${text(d, "planName") ?? "?"}": period ${text(d, "period") ?? ""} was missed`,
      lines: [text(d, "reason") ?? "It was not made on time.", `Noted ${at}.`],
      link: path("/plans", text(d, "planId")),
    }),
    "exception.opened": () => {
      const kind = text(d, "kind");
      return {
        title: `Exception: ${kind && kind in KIND_LABELS ? KIND_LABELS[kind as keyof typeof KIND_LABELS] : "needs a look"}`,
        lines: [
          [text(d, "tag") ? `@${text(d, "tag")}` : "", text(d, "amount") ? naira(text(d, "amount")) : ""].filter(Boolean).join(" · "),
          `Opened ${at}.`,
        ].filter(Boolean),
        link: "/exceptions",
      };
    },
    "exception.resolved": () => ({
      title: `Exception resolved${text(d, "resolvedBy") ? ` by ${text(d, "resolvedBy")}` : ""}`,
      lines: [text(d, "note") ?? "", `Resolved ${at}.`].filter(Boolean),
      link: "/exceptions",
    }),
    "payer.updated": () => ({
      title: d.doNotAsk === true ? `@${text(d, "tag") ?? "?"} marked do-not-ask` : `@${text(d, "tag") ?? "?"} may be asked again`,
      lines: [text(d, "note") ?? "", `${at}.`].filter(Boolean),
      link: path("/payers", text(d, "tag")),
    }),
    "pay_page.submitted": () => ({
      title: `A pay page was submitted`,
      lines: [`${at}.`],
      link: "/",
    }),
  };
  return describe[event.type]();
}

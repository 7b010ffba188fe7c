// The audit log in words (docs/decisions.md, "The daily desk"): one sentence and one target link per action code,
// so the log reads "Changed Ada's role to admin", not "staff.role_changed". Every code in AUDIT_ACTIONS must
// have its words here (the Record's type and lib/audit/words.test.ts both fail otherwise). Browser-safe.
import type { AuditAction } from "@/lib/audit/write";
import { formatMajor } from "@/lib/client/money";

/** What an entry is about, which decides where its target links. */
export type AuditTargetKind = "request" | "payment" | "campaign" | "staff" | "payer" | "plan" | "exception" | "none";

/** The parts of a row a sentence may use; `targetName` is the staff member's or campaign's name when known. */
export interface AuditFacts {
  detail: Record<string, unknown> | null;
  target: string | null;
  targetName: string | null;
}

export interface AuditWords {
  /** The action filter's choice: what kind of thing happened. */
  label: string;
  target: AuditTargetKind;
  /** The row's sentence, from its detail. */
  sentence: (facts: AuditFacts) => string;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : typeof value === "number" ? String(value) : null);
const whose = (f: AuditFacts): string => `${f.targetName ?? f.target ?? "someone"}’s`;
const who = (f: AuditFacts): string => f.targetName ?? f.target ?? "someone";
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
const sessionsEnded = (f: AuditFacts): string => {
  const n = Number(f.detail?.sessionsEnded ?? 0);
  return n > 0 ? ` (${plural(n, "session", "sessions")} signed out)` : "";
};

const SENDER_LOSS: Record<string, string> = {
  sender_disabled: "the person sending it was disabled",
  sender_demoted: "the person sending it can no longer send",
  sender_missing: "the person sending it no longer has an account",
};

export const AUDIT_WORDS: Record<AuditAction, AuditWords> = {
  "auth.sign_in": {
    label: "Signed in",
    target: "none",
    sentence: (f) => (f.detail?.secondStep ? "Signed in with two-step sign-in" : "Signed in"),
  },
  "auth.sign_in_failed": {
    label: "Sign-in refused",
    target: "none",
    sentence: (f) => (text(f.detail?.reason) ? `Sign-in refused: ${text(f.detail?.reason)}` : "Sign-in refused"),
  },
  "auth.sign_in_throttled": {
    label: "Sign-in refused: too many tries",
    target: "none",
    sentence: () => "Sign-in refused: too many tries from this address",
  },
  "auth.sign_out": { label: "Signed out", target: "none", sentence: () => "Signed out" },
  "account.password_changed": {
    label: "Changed own password",
    target: "staff",
    sentence: (f) => {
      const n = Number(f.detail?.otherSessionsEnded ?? 0);
      return n > 0 ? `Changed their password (${plural(n, "other session", "other sessions")} signed out)` : "Changed their password";
    },
  },
  "account.two_step_setup_started": {
    label: "Started setting up two-step sign-in",
    target: "staff",
    sentence: () => "Started setting up two-step sign-in (a new QR code, not on until its first code)",
  },
  "account.two_step_enabled": { label: "Turned on two-step sign-in", target: "staff", sentence: () => "Turned on two-step sign-in" },
  "account.two_step_disabled": { label: "Turned off two-step sign-in", target: "staff", sentence: () => "Turned off two-step sign-in" },
  "account.recovery_codes_renewed": { label: "Made new recovery codes", target: "staff", sentence: () => "Made new recovery codes" },
  "account.session_ended": {
    label: "Signed out a session",
    target: "staff",
    sentence: (f) => (f.detail?.current ? "Signed out this device" : "Signed out one of their other devices"),
  },
  "webhook_endpoint.created": { label: "Added a webhook endpoint", target: "none", sentence: (f) => `Added the webhook endpoint ${text(f.detail?.url) ?? ""}` },
  "webhook_endpoint.updated": {
    label: "Changed a webhook endpoint",
    target: "none",
    sentence: (f) => `Changed the webhook endpoint ${text(f.detail?.url) ?? ""}`,
  },
  "webhook_endpoint.deleted": {
    label: "Deleted a webhook endpoint",
    target: "none",
    sentence: (f) => `Deleted the webhook endpoint ${text(f.detail?.url) ?? ""}`,
  },
  "webhook_endpoint.secret_rotated": {
    label: "Rotated a webhook secret",
    target: "none",
    sentence: (f) =>
      `Rotated the signing secret of ${text(f.detail?.url) ?? "a webhook endpoint"} (the old one signs for ${text(f.detail?.overlapHours) ?? "0"} more hours)`,
  },
  "webhook_endpoint.secret_revealed": {
    label: "Revealed a webhook secret",
    target: "none",
    sentence: (f) => `Revealed the signing secret of ${text(f.detail?.url) ?? "a webhook endpoint"}`,
  },
  "webhook_endpoint.test_sent": {
    label: "Sent a test webhook",
    target: "none",
    sentence: (f) => `Sent a test ${text(f.detail?.type) ?? "event"} to ${text(f.detail?.url) ?? "a webhook endpoint"}`,
  },
  "webhook_endpoint.recovered": {
    label: "Re-sent failed webhooks",
    target: "none",
    sentence: (f) =>
      `Queued again ${plural(Number(f.detail?.count ?? 0), "failed delivery", "failed deliveries")} to ${text(f.detail?.url) ?? "a webhook endpoint"}`,
  },
  "webhook_endpoint.disabled": {
    label: "A webhook endpoint was turned off",
    target: "none",
    sentence: (f) => `Turned off the webhook endpoint ${text(f.detail?.url) ?? ""}: ${text(f.detail?.reason) ?? ""}`,
  },
  "webhook_delivery.resent": {
    label: "Re-sent a webhook",
    target: "none",
    sentence: (f) => `Re-sent ${text(f.detail?.eventType) ?? "an event"} to ${text(f.detail?.url) ?? "a webhook endpoint"}`,
  },
  "api_key.created": {
    label: "Made an API key",
    target: "none",
    sentence: (f) => `Made the API key ${text(f.detail?.name) ?? "(unnamed)"} (${text(f.detail?.hint) ?? "a key"})`,
  },
  "api_key.rolled": {
    label: "Rolled an API key",
    target: "none",
    sentence: (f) =>
      `Rolled the API key ${text(f.detail?.name) ?? "(unnamed)"}: the old one works ${Number(f.detail?.overlapHours ?? 0) === 0 ? "no longer" : `${text(f.detail?.overlapHours)} more hours`}`,
  },
  "api_key.revoked": { label: "Revoked an API key", target: "none", sentence: (f) => `Revoked the API key ${text(f.detail?.name) ?? "(unnamed)"}` },
  "pay_page.created": {
    label: "Made a pay page",
    target: "none",
    sentence: (f) => `Made the pay page ${text(f.detail?.title) ?? "(untitled)"} at /pay/${text(f.detail?.slug) ?? "?"}`,
  },
  "pay_page.changed": {
    label: "Changed a pay page",
    target: "none",
    sentence: (f) => {
      const fields = Array.isArray(f.detail?.fields) ? f.detail.fields.map(String).join(", ") : "its settings";
      return `Changed the pay page /pay/${text(f.detail?.slug) ?? "?"}: ${fields}`;
    },
  },
  "settings.business_name_changed": {
    label: "Changed the business name",
    target: "none",
    sentence: (f) => `Changed the business name payers see to ${text(f.detail?.to) ?? "?"}`,
  },
  "account.notifications_changed": { label: "Changed their notifications", target: "staff", sentence: () => "Changed what they are told, and how" },
  "account.other_sessions_ended": {
    label: "Signed out other devices",
    target: "staff",
    sentence: (f) => {
      const n = Number(f.detail?.ended ?? 0);
      return `Signed out their other devices (${plural(n, "session", "sessions")})`;
    },
  },
  "staff.created": {
    label: "Added a staff member",
    target: "staff",
    sentence: (f) =>
      f.detail?.via === "ADMIN_EMAIL"
        ? `Set up the first admin, ${who(f)}, from the server's settings`
        : `Added ${who(f)}${text(f.detail?.role) ? ` as ${text(f.detail?.role)}` : ""}`,
  },
  "staff.role_changed": {
    label: "Changed someone's role",
    target: "staff",
    sentence: (f) =>
      `Changed ${whose(f)} role${text(f.detail?.from) ? ` from ${text(f.detail?.from)}` : ""} to ${text(f.detail?.to) ?? "another role"}${sessionsEnded(f)}`,
  },
  "staff.disabled": { label: "Disabled an account", target: "staff", sentence: (f) => `Disabled ${whose(f)} account${sessionsEnded(f)}` },
  "staff.enabled": { label: "Re-enabled an account", target: "staff", sentence: (f) => `Re-enabled ${whose(f)} account` },
  "staff.password_reset": {
    label: "Reset a password",
    target: "staff",
    sentence: (f) => (f.detail?.via === "ADMIN_RESET" ? `Reset ${whose(f)} password from the server's settings` : `Reset ${whose(f)} password`),
  },
  "staff.two_step_reset": {
    label: "Reset someone's two-step sign-in",
    target: "staff",
    sentence: (f) => `Reset ${whose(f)} two-step sign-in${sessionsEnded(f)}`,
  },
  "settings.require_2fa_changed": {
    label: "Changed the two-step rule",
    target: "staff",
    sentence: (f) => (f.detail?.to ? "Required two-step sign-in for everyone" : "Stopped requiring two-step sign-in"),
  },
  "request.created": {
    label: "Sent a fund request",
    target: "request",
    sentence: (f) => {
      if (text(f.detail?.failed)) return `Tried to send a fund request; the payment service refused it (${text(f.detail?.failed)})`;
      const amount = text(f.detail?.amount);
      const tag = text(f.detail?.tag);
      return `Sent a fund request${amount ? ` for ${formatMajor("NGN", amount)}` : ""}${tag ? ` to @${tag}` : ""}`;
    },
  },
  "payment.reverify": {
    label: "Checked a payment again",
    target: "payment",
    sentence: (f) => {
      const result = text(f.detail?.result);
      return result === "verified" ? "Checked a payment again: verified" : result ? `Checked a payment again: ${result}` : "Checked a payment again";
    },
  },
  "campaign.uploaded": {
    label: "Uploaded a campaign",
    target: "campaign",
    sentence: (f) => {
      const rows = Number(f.detail?.rows ?? 0);
      const invalid = Number(f.detail?.invalid ?? 0);
      return `Uploaded a campaign of ${plural(rows, "row", "rows")}${invalid > 0 ? `, ${invalid.toLocaleString("en")} of them with a problem` : ""}`;
    },
  },
  "campaign.started": { label: "Started a campaign", target: "campaign", sentence: () => "Started the campaign" },
  "campaign.paused": {
    label: "Paused a campaign",
    target: "campaign",
    sentence: (f) =>
      f.detail?.automatic
        ? `The campaign paused by itself: ${SENDER_LOSS[text(f.detail?.reason) ?? ""] ?? "its sender can no longer send"}`
        : "Paused the campaign",
  },
  "campaign.resumed": { label: "Resumed a campaign", target: "campaign", sentence: () => "Resumed the campaign" },
  "campaign.cancelled": { label: "Cancelled a campaign", target: "campaign", sentence: () => "Cancelled the campaign" },
  "campaign.asked_again": {
    label: "Made an ask-again round",
    target: "campaign",
    sentence: (f) => {
      const rows = Number(f.detail?.rows ?? 0);
      const leftOut = Number(f.detail?.leftOut ?? 0);
      const override = f.detail?.overrideCooldown === true ? ", asking people still cooling down (cool-down overridden for this round)" : "";
      return `Made round ${text(f.detail?.round) ?? "?"} asking ${plural(rows, "person", "people")} again${leftOut > 0 ? `, ${leftOut.toLocaleString("en")} left out` : ""}${override}`;
    },
  },
  "payer.do_not_ask_marked": {
    label: "Marked do not ask",
    target: "payer",
    sentence: (f) => `Marked @${f.target ?? "?"} do not ask${text(f.detail?.note) ? `: ${text(f.detail?.note)}` : ""}`,
  },
  "payer.do_not_ask_cleared": { label: "Cleared do not ask", target: "payer", sentence: (f) => `Cleared do not ask for @${f.target ?? "?"}` },
  "settings.chasing_changed": {
    label: "Changed the chasing policy",
    target: "none",
    sentence: (f) =>
      `Changed the chasing policy: cool-down ${text(f.detail?.declineCooldownHours) ?? "?"} h after a decline, at most ${text(f.detail?.maxAsksPerTag) ?? "?"} asks a tag in a campaign family`,
  },
  "plan.created": {
    label: "Made a plan",
    target: "plan",
    sentence: (f) =>
      `Made the plan ${text(f.detail?.name) ?? ""} (${text(f.detail?.frequency) ?? "?"}, ${plural(Number(f.detail?.members ?? 0), "member", "members")})`,
  },
  "plan.paused": { label: "Paused a plan", target: "plan", sentence: () => "Paused the plan: no period is made until it is resumed" },
  "plan.resumed": { label: "Resumed a plan", target: "plan", sentence: () => "Resumed the plan" },
  "plan.ended": { label: "Ended a plan", target: "plan", sentence: () => "Ended the plan: it makes no more periods" },
  "plan.members_changed": {
    label: "Changed a plan's members",
    target: "plan",
    sentence: (f) =>
      text(f.detail?.payPage)
        ? `Added a payer who paid through the pay page /pay/${text(f.detail?.payPage) ?? ""} to the plan`
        : `Changed the plan's members from the next period: ${Number(f.detail?.added ?? 0)} added, ${Number(f.detail?.removed ?? 0)} removed, ${Number(f.detail?.changed ?? 0)} amounts changed`,
  },
  "plan.schedule_changed": {
    label: "Changed a plan's schedule",
    target: "plan",
    sentence: (f) =>
      `Changed the plan's schedule to ${text(f.detail?.frequency) ?? "?"} on day ${text(f.detail?.day) ?? "?"} at ${text(f.detail?.sendAt) ?? "?"}`,
  },
  "plan.period_run": { label: "Ran a plan's period", target: "plan", sentence: (f) => `Ran the period ${text(f.detail?.period) ?? "?"} by hand` },
  "exception.resolved": {
    label: "Resolved an exception",
    target: "exception",
    sentence: (f) => {
      const linked = text(f.detail?.linkedRequestId);
      const [paid, asked] = [text(f.detail?.paid), text(f.detail?.asked)];
      const differs =
        f.detail?.acceptedDifferentAmount === true && paid && asked
          ? ` (a different amount accepted: ${formatMajor("NGN", paid)} paid, ${formatMajor("NGN", asked)} asked)`
          : "";
      return `Resolved an exception (${text(f.detail?.kind)?.replaceAll("_", " ") ?? "?"})${linked ? `, linking its payment to request #${linked}${differs}` : ""}: ${text(f.detail?.note) ?? ""}`;
    },
  },
  "payment.recorded_by_hand": {
    label: "Recorded a payment by hand",
    target: "payment",
    sentence: (f) => {
      const amount = text(f.detail?.amount);
      const request = text(f.detail?.requestId);
      return `Recorded a payment of ${amount ? formatMajor("NGN", amount) : "?"} by hand${request ? ` for request #${request}` : ""} (not verified): ${text(f.detail?.note) ?? ""}`;
    },
  },
  "payment.hand_record_replaced": {
    label: "A hand record was replaced by its payment notice",
    target: "payment",
    sentence: (f) => {
      const amount = text(f.detail?.handAmount);
      return `The payment recorded by hand${amount ? ` (${formatMajor("NGN", amount)})` : ""} was replaced by its late payment notice`;
    },
  },
  "exception.reopened": {
    label: "Reopened an exception",
    target: "exception",
    sentence: (f) => `Reopened an exception (${text(f.detail?.kind)?.replaceAll("_", " ") ?? "?"})`,
  },
};

function isKnown(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_WORDS, action);
}

/** What a row's target is (a code this version does not know has none). */
export function auditTargetKind(action: string): AuditTargetKind {
  return isKnown(action) ? AUDIT_WORDS[action].target : "none";
}

/** A row's sentence; a code this version does not know (a newer version's row) is shown as it is. */
export function auditSentence(action: string, facts: AuditFacts): string {
  return isKnown(action) ? AUDIT_WORDS[action].sentence(facts) : action;
}

/** The action filter's words for a code. */
export function auditLabel(action: AuditAction): string {
  return AUDIT_WORDS[action].label;
}

/** Where a row's target opens: its request, payment or campaign, or the staff page for an account; null for none. */
export function auditTargetHref(action: string, target: string | null): string | null {
  if (!isKnown(action)) return null;
  const kind = AUDIT_WORDS[action].target;
  // Accounts and the team's settings are all on the staff page.
  if (kind === "staff") return "/staff";
  if (!target) return null;
  switch (kind) {
    case "request":
      return `/requests/${encodeURIComponent(target)}`;
    case "payment":
      return `/payments/${encodeURIComponent(target)}`;
    case "campaign":
      return `/campaigns/${encodeURIComponent(target)}`;
    case "payer":
      return `/payers/${encodeURIComponent(target)}`;
    case "plan":
      return `/plans/${encodeURIComponent(target)}`;
    case "exception":
      return "/exceptions?status=resolved";
    case "none":
      return null;
  }
}

/** The target's name as a link shows it: the person's or campaign's name, "Request #12", "Payment 3f2a…". */
export function auditTargetText(action: string, target: string | null, targetName: string | null): string | null {
  if (!target) return isKnown(action) && action.startsWith("settings.") ? "Team settings" : null;
  if (!isKnown(action)) return target;
  switch (AUDIT_WORDS[action].target) {
    case "request":
      return /^\d+$/.test(target) ? `Request #${target}` : `Request ${target}`;
    case "payment":
      return `Payment ${target.slice(0, 8)}…`;
    case "campaign":
      return targetName ?? "A campaign";
    case "payer":
      return `@${target}`;
    case "plan":
      return targetName ?? "A plan";
    case "exception":
      return "An exception";
    case "staff":
    case "none":
      return targetName ?? target;
  }
}

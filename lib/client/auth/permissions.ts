import { ADMINS, ANY_STAFF, SENDERS, type Role } from "./roles";

// Who may do what (docs/architecture.md "Actors"): one closed list of permissions, each mapped to the staff roles
// that hold it, the API-key scope that grants it (none: no key may), and whether the system (a job) and the public
// may. lib/actors/permissions.ts decides with it (`can`, `authorize`); it is here, browser-safe, so the navigation
// can hide what a role may not open. Route handlers and pages name a permission, never a role.

/** The scopes an API key can hold; a key never manages staff, settings or keys. */
export const API_SCOPES = [
  "requests:read",
  "requests:write",
  "payments:read",
  "payers:read",
  "payers:write",
  "campaigns:read",
  "campaigns:write",
  "plans:read",
  "plans:write",
  "reports:read",
  "events:read",
  "webhooks:read",
  "webhooks:write",
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export interface PermissionRule {
  /** The staff roles that hold it. */
  staff: readonly Role[];
  /** The API-key scope that grants it; null: no key may. */
  scope: ApiScope | null;
  /** A job acting as the system may. */
  system: boolean;
  /** Anyone, signed in or not, may. */
  public: boolean;
}

const rule = (staff: readonly Role[], scope: ApiScope | null, system: boolean): PermissionRule => ({ staff, scope, system, public: false });

/** The table itself; the keys are the closed list of permissions. */
export const PERMISSION_RULES = {
  "requests.read": rule(ANY_STAFF, "requests:read", true),
  "requests.write": rule(SENDERS, "requests:write", true),
  "payments.read": rule(ANY_STAFF, "payments:read", true),
  /** The accounting export, every field unmasked. */
  "payments.export": rule(SENDERS, null, false),
  "payments.reverify": rule(SENDERS, null, true),
  "payers.read": rule(ANY_STAFF, "payers:read", true),
  /** Do not ask: marking and clearing a payer. */
  "payers.write": rule(SENDERS, "payers:write", false),
  "campaigns.read": rule(ANY_STAFF, "campaigns:read", true),
  /** Upload, start, pause, resume, cancel, ask again; also what a campaign's sender of record must hold. */
  "campaigns.write": rule(SENDERS, "campaigns:write", true),
  "plans.read": rule(ANY_STAFF, "plans:read", true),
  "plans.write": rule(SENDERS, "plans:write", true),
  "exceptions.read": rule(ANY_STAFF, null, true),
  "exceptions.resolve": rule(SENDERS, null, true),
  /** The desk, the day book, settled per day and the balance. */
  "reports.read": rule(ANY_STAFF, "reports:read", true),
  /** The live stream of changes. */
  "events.read": rule(ANY_STAFF, "events:read", false),
  /** The webhook delivery log and its bad-signature banner. */
  "deliveries.read": rule(ADMINS, null, false),
  /** Outgoing webhooks: the endpoints and their deliveries. */
  "webhooks.read": rule(ADMINS, "webhooks:read", false),
  /** Add, change, delete, rotate, reveal, test, resend and recover outgoing webhooks. */
  "webhooks.manage": rule(ADMINS, "webhooks:write", false),
  /** Make, roll and revoke API keys: people only, never a key. */
  "api_keys.manage": rule(ADMINS, null, false),
  /** Pay pages: the list and their counts. */
  "pay_pages.read": rule(ANY_STAFF, null, false),
  /** Make and change pay pages (admins and operators). */
  "pay_pages.manage": rule(SENDERS, null, false),
  /** A payer submitting a pay page: anyone on the internet, behind the page's abuse checks. */
  "pay_pages.submit": { staff: [] as readonly Role[], scope: null, system: false, public: true },
  "audit.read": rule(ADMINS, null, false),
  "staff.manage": rule(ADMINS, null, false),
  "settings.manage": rule(ADMINS, null, false),
  /** The person's own account: password, two-step sign-in, sessions, signing out. */
  "account.own": rule(ANY_STAFF, null, false),
  /** /api/health's last service call. */
  "health.detail": rule(ADMINS, null, false),
} as const satisfies Record<string, PermissionRule>;

export type Permission = keyof typeof PERMISSION_RULES;

export const PERMISSIONS = Object.keys(PERMISSION_RULES) as Permission[];

/** True when a staff member of `role` holds `permission`. */
export function roleMay(role: Role, permission: Permission): boolean {
  return PERMISSION_RULES[permission].staff.includes(role);
}

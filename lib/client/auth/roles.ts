export const ROLES = ["admin", "operator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** The role lists of the permission table (lib/client/auth/permissions.ts); handlers and pages name a permission, never these (docs/architecture.md "Actors"). */
export const ANY_STAFF: readonly Role[] = ROLES;
export const SENDERS: readonly Role[] = ["admin", "operator"];
export const ADMINS: readonly Role[] = ["admin"];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin — everything, manages staff",
  operator: "Operator — sends fund requests",
  viewer: "Viewer — reads only",
};

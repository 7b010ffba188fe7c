export const ROLES = ["admin", "operator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** Who may do what (docs/architecture.md); handlers name these lists rather than raw role strings. */
export const ANY_STAFF: readonly Role[] = ROLES;
export const SENDERS: readonly Role[] = ["admin", "operator"];
export const ADMINS: readonly Role[] = ["admin"];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin — everything, manages staff",
  operator: "Operator — sends fund requests",
  viewer: "Viewer — reads only",
};

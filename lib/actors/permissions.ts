import "server-only";

import { PERMISSION_RULES, type ApiScope, type Permission } from "@/lib/client/auth/permissions";
import { forbidden, type ApiError } from "@/lib/http/api-error";

import type { Actor, StaffActor } from "./actor";

export type { Permission } from "@/lib/client/auth/permissions";

// The one place that decides what an actor may do (docs/architecture.md "Actors"), from the table in
// lib/client/auth/permissions.ts. A refusal is the guard's 403, so it reads the same whether withStaff or a use case
// refused (the only module outside lib/http and the guards that builds an answer, tests/owners.test.ts).

/** True when `actor` holds `permission`. */
export function can(actor: Actor, permission: Permission): boolean {
  const rule = PERMISSION_RULES[permission];
  switch (actor.kind) {
    case "staff":
      return rule.staff.includes(actor.role);
    case "api_key":
      return rule.scope !== null && actor.scopes.includes(rule.scope);
    case "public":
      return rule.public;
    case "system":
      return rule.system;
  }
}

/** The 403 an actor gets for a permission it does not hold; a person's reads as withStaff's always has. */
export function refusal(actor: Actor, permission: Permission): ApiError {
  switch (actor.kind) {
    case "staff":
      return forbidden(`Your role (${actor.role}) may not do this. Ask an admin if you need access.`);
    case "api_key": {
      const scope = PERMISSION_RULES[permission].scope;
      return forbidden(
        scope === null
          ? `An API key may not do this (${permission}); only people signed in to the dashboard may.`
          : `This API key (${actor.name}) lacks the ${scope} scope.`,
      );
    }
    case "public":
      return forbidden("Sign in to do this.");
    case "system":
      return forbidden(`The ${actor.job} job may not do this (${permission}).`);
  }
}

/** Throws the 403 unless `actor` holds `permission`: the first line of every use case. */
export function authorize(actor: Actor, permission: Permission): void {
  if (!can(actor, permission)) throw refusal(actor, permission);
}

/** authorize, for a permission only people hold (their own account): the actor as a person. */
export function authorizeStaff(actor: Actor, permission: Permission): StaffActor {
  authorize(actor, permission);
  if (actor.kind !== "staff") throw refusal(actor, permission);
  return actor;
}

/** The one permission an API-key scope grants (each scope grants exactly one; lib/actors/permissions.test.ts). */
export function permissionForScope(scope: ApiScope): Permission {
  const found = (Object.keys(PERMISSION_RULES) as Permission[]).filter((p) => PERMISSION_RULES[p].scope === scope);
  if (found.length !== 1 || !found[0]) throw new Error(`the scope ${scope} must grant exactly one permission`);
  return found[0];
}

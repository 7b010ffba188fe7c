import "server-only";

import type { ApiScope } from "@/lib/client/auth/permissions";
import type { Role } from "@/lib/client/auth/roles";

// Who makes a change (docs/architecture.md "Actors"): every use case in lib/ takes one, asks
// lib/actors/permissions.ts whether it may, and records it in the audit row. Route handlers get a staff actor from
// withStaff (lib/auth/guard.ts); jobs make a system actor.

/** A signed-in person, through the dashboard. `sessionId`: the session the request came in on (null outside one). */
export interface StaffActor {
  kind: "staff";
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string | null;
  ip: string | null;
}

/**
 * A program calling with an API key, limited to its scopes. `ownerId` is the staff account that made the key: what
 * the key asks for is recorded under that person (a campaign's sender, a request's creator), as the tables name a
 * person there (docs/decisions.md "Actors and permissions").
 */
export interface ApiKeyActor {
  kind: "api_key";
  id: string;
  name: string;
  scopes: readonly ApiScope[];
  ownerId: string;
  ip: string | null;
}

/** Someone not signed in (a payer on a public page, say); no permission admits one today. */
export interface PublicActor {
  kind: "public";
  ip: string | null;
  pageId?: string;
}

/** A job of the app's own: the clock, a sweep, the sender. `job` names it. */
export interface SystemActor {
  kind: "system";
  job: string;
}

export type Actor = StaffActor | ApiKeyActor | PublicActor | SystemActor;

/** The staff actor of a signed-in person (`currentStaff`), from `ip` (null when there is no request, as in a server action). */
export function staffActor(staff: { id: string; email: string; name: string; role: Role; sessionId?: string | null }, ip: string | null = null): StaffActor {
  return { kind: "staff", id: staff.id, email: staff.email, name: staff.name, role: staff.role, sessionId: staff.sessionId ?? null, ip };
}

export function systemActor(job: string): SystemActor {
  return { kind: "system", job };
}

/**
 * The audit row's actor: a person's id and e-mail; for an API key no id (the column names staff) and the e-mail
 * `api_key:<name>`, so the log and its person filter tell keys from people; none for the public or the system, as the
 * jobs' rows have always had.
 */
export function auditActorOf(actor: Actor): { id: string | null; email: string | null } | null {
  switch (actor.kind) {
    case "staff":
      return { id: actor.id, email: actor.email };
    case "api_key":
      return { id: null, email: `api_key:${actor.name}` };
    case "public":
    case "system":
      return null;
  }
}

/** The audit row's address: the request's, or none for the system. */
export function auditIpOf(actor: Actor): string | null {
  return actor.kind === "system" ? null : actor.ip;
}

/** The person a change is recorded under (a campaign's sender, a request's creator, who marked or resolved). */
export interface PersonOfRecord {
  id: string;
  name: string;
}

/**
 * The staff member, or for an API key the one who made it (named as the key); null for the public and the system,
 * whose jobs record their own person (a plan's creator, say) through the domain functions, not these use cases.
 */
export function personOf(actor: Actor): PersonOfRecord | null {
  switch (actor.kind) {
    case "staff":
      return { id: actor.id, name: actor.name };
    case "api_key":
      return { id: actor.ownerId, name: `API key ${actor.name}` };
    case "public":
    case "system":
      return null;
  }
}

/** personOf for a change that must name a person; an actor with none reaching here is a programming error. */
export function requirePerson(actor: Actor): PersonOfRecord {
  const person = personOf(actor);
  if (!person) throw new Error(`a ${actor.kind} actor has no person to record this change under`);
  return person;
}

/**
 * How the actor sees masked fields (a payer's contact): as its role for a person; a key holding `payers:read` as an
 * operator (unmasked; never a bvn, which no view carries); anyone else as a viewer (masked).
 */
export function viewRoleOf(actor: Actor): Role {
  if (actor.kind === "staff") return actor.role;
  if (actor.kind === "api_key" && actor.scopes.includes("payers:read")) return "operator";
  return "viewer";
}

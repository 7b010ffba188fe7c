import "server-only";

import { auditActorOf, auditIpOf, type Actor, type StaffActor } from "@/lib/actors/actor";
import { authorizeStaff } from "@/lib/actors/permissions";
import { writeAudit } from "@/lib/audit/write";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { getSettings } from "@/lib/settings/repo";

import { setPassword } from "./accounts";
import { checkOwnPassword, type PasswordCheck } from "./confirm-password";
import { checkPasswordAndCode, type PasswordAndCodeCheck } from "./confirm-two-step";
import { endSession, endSessions } from "./sessions";
import { clearFailures } from "./throttle";
import { beginTwoStepSetup, enableTwoStep, removeTwoStep, replaceRecoveryCodes, TwoStepUnreadable, type TwoStepSetup } from "./two-step";

// A person's own account (docs/architecture.md "Staff accounts" and "Actors"): their password, their two-step
// sign-in, their sessions, signing out. Each is a use case: the actor authorized for `account.own`, the password (and
// code) checked under the sign-in throttle, the change, its audit row; a typed outcome the route answers
// (app/api/me/confirm.ts says a refused check over HTTP).

/** The password (and code) check refused: the route answers it (422 on the field, 429, or 409). */
export type CheckRefused = { kind: "refused"; check: Exclude<PasswordAndCodeCheck, { ok: true }> };

/** The throttle's key: the request's address ("unknown" where there is none, as lib/http/client-ip.ts says it). */
const addressOf = (actor: StaffActor) => actor.ip ?? "unknown";

function own(actor: Actor): StaffActor {
  return authorizeStaff(actor, "account.own");
}

async function audit(db: Db, actor: StaffActor, action: Parameters<typeof writeAudit>[1]["action"], detail?: Record<string, unknown>): Promise<void> {
  await writeAudit(db, { action, actor: auditActorOf(actor), target: actor.email, detail, ip: auditIpOf(actor) });
}

async function passwordChecked(db: Db, actor: StaffActor, password: string): Promise<Exclude<PasswordCheck, { ok: true }> | null> {
  const check = await checkOwnPassword(db, actor, password, addressOf(actor));
  return check.ok ? null : check;
}

export type TwoStepSetupOutcome = CheckRefused | { kind: "already_on" } | { kind: "started"; setup: TwoStepSetup };

/** A new authenticator secret (and its QR code) waiting for the first code, after the person's password. */
export async function startOwnTwoStepSetup(db: Db, by: Actor, input: { password: string }): Promise<TwoStepSetupOutcome> {
  const actor = own(by);
  const refused = await passwordChecked(db, actor, input.password);
  if (refused) return { kind: "refused", check: refused };
  await clearFailures(db, actor.email);
  const setup = await beginTwoStepSetup(db, actor, getConfig().authSecret);
  if (!setup) return { kind: "already_on" };
  await audit(db, actor, "account.two_step_setup_started");
  return { kind: "started", setup };
}

export type TwoStepEnableOutcome =
  CheckRefused | { kind: "unreadable" } | { kind: "wrong_code" } | { kind: "already_on" } | { kind: "no_setup" } | { kind: "enabled"; recoveryCodes: string[] };

/** Two-step sign-in on, with the password and the app's first code (a wrong code stays counted in the throttle). */
export async function enableOwnTwoStep(db: Db, by: Actor, input: { password: string; code: string }): Promise<TwoStepEnableOutcome> {
  const actor = own(by);
  const refused = await passwordChecked(db, actor, input.password);
  if (refused) return { kind: "refused", check: refused };
  let outcome;
  try {
    outcome = await enableTwoStep(db, actor.id, input.code, getConfig().authSecret);
  } catch (error) {
    if (error instanceof TwoStepUnreadable) return { kind: "unreadable" };
    throw error;
  }
  if (!outcome.ok) return { kind: outcome.reason };
  await clearFailures(db, actor.email);
  await audit(db, actor, "account.two_step_enabled");
  return { kind: "enabled", recoveryCodes: outcome.recoveryCodes };
}

export type TwoStepDisableOutcome = CheckRefused | { kind: "required" } | { kind: "disabled" };

/** Two-step sign-in off, with the password and a current code (or a recovery code); refused while the team requires it. */
export async function disableOwnTwoStep(db: Db, by: Actor, input: { password: string; code: string }): Promise<TwoStepDisableOutcome> {
  const actor = own(by);
  if ((await getSettings(db)).require2fa) return { kind: "required" };
  const check = await checkPasswordAndCode(db, actor, input, addressOf(actor));
  if (!check.ok) return { kind: "refused", check };
  await removeTwoStep(db, actor.id);
  await clearFailures(db, actor.email);
  await audit(db, actor, "account.two_step_disabled");
  return { kind: "disabled" };
}

export type RecoveryCodesOutcome = CheckRefused | { kind: "not_on" } | { kind: "renewed"; recoveryCodes: string[] };

/** Ten new recovery codes in place of the old ones, for the password and a current code. */
export async function renewOwnRecoveryCodes(db: Db, by: Actor, input: { password: string; code: string }): Promise<RecoveryCodesOutcome> {
  const actor = own(by);
  const check = await checkPasswordAndCode(db, actor, input, addressOf(actor));
  if (!check.ok) return { kind: "refused", check };
  // Only for the secret the code was checked against: a reset (and a new set-up) meanwhile wins.
  const codes = await replaceRecoveryCodes(db, actor.id, check.row.totpSecret, getConfig().authSecret);
  if (!codes) return { kind: "not_on" };
  await clearFailures(db, actor.email);
  await audit(db, actor, "account.recovery_codes_renewed");
  return { kind: "renewed", recoveryCodes: codes };
}

export type PasswordChangeOutcome = CheckRefused | { kind: "changed"; otherSessionsEnded: number };

/** The person's own new password; every other session of theirs ends. */
export async function changeOwnPassword(db: Db, by: Actor, input: { currentPassword: string; newPassword: string }): Promise<PasswordChangeOutcome> {
  const actor = own(by);
  const refused = await passwordChecked(db, actor, input.currentPassword);
  if (refused) return { kind: "refused", check: refused };
  await setPassword(db, actor.id, input.newPassword);
  await clearFailures(db, actor.email);
  const ended = await endSessions(db, actor.id, "password_changed", actor.sessionId ?? undefined);
  await audit(db, actor, "account.password_changed", { otherSessionsEnded: ended });
  return { kind: "changed", otherSessionsEnded: ended };
}

export type SessionEndOutcome = { kind: "not_found" } | { kind: "ended"; id: string; current: boolean };

/** Signs one of the person's own sessions out; another person's, or one already ended, is "not found". */
export async function endOwnSession(db: Db, by: Actor, sessionId: string): Promise<SessionEndOutcome> {
  const actor = own(by);
  if (!(await endSession(db, actor.id, sessionId, "ended_by_owner"))) return { kind: "not_found" };
  const current = sessionId === actor.sessionId;
  await audit(db, actor, "account.session_ended", { session: sessionId, current });
  return { kind: "ended", id: sessionId, current };
}

/** "Sign out everywhere else": every session of the person but the one they act in ends; how many did. */
export async function endOtherOwnSessions(db: Db, by: Actor): Promise<{ kind: "ended"; ended: number }> {
  const actor = own(by);
  const ended = await endSessions(db, actor.id, "ended_by_owner", actor.sessionId ?? undefined);
  await audit(db, actor, "account.other_sessions_ended", { ended });
  return { kind: "ended", ended };
}

/** Signing out (the header's button): the session ends here, so a copy of the cookie is refused from now on. */
export async function signOutOwnSession(db: Db, by: Actor): Promise<void> {
  const actor = own(by);
  if (actor.sessionId === null) return;
  await endSession(db, actor.id, actor.sessionId, "signed_out");
  await writeAudit(db, { action: "auth.sign_out", actor: auditActorOf(actor), detail: { session: actor.sessionId }, ip: auditIpOf(actor) });
}

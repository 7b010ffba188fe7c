import "server-only";

import { forbidden, redirect } from "next/navigation";

import type { Role } from "./roles";
import { currentStaff, type CurrentStaff } from "./session";

/** Pages check the session and role themselves; the proxy's redirect is only a shortcut. */
export async function requirePageStaff(roles: readonly Role[], returnTo: string): Promise<CurrentStaff> {
  const staff = await currentStaff();
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (!roles.includes(staff.role)) forbidden();
  return staff;
}

/** Server actions: the same checks, reported as a result instead of a redirect. */
export async function requireActionStaff(roles: readonly Role[]): Promise<{ ok: true; staff: CurrentStaff } | { ok: false; message: string }> {
  const staff = await currentStaff();
  if (!staff) return { ok: false, message: "You are not signed in. Sign in and try again." };
  if (!roles.includes(staff.role)) return { ok: false, message: `Your role (${staff.role}) may not do this.` };
  return { ok: true, staff };
}

import "server-only";

import { forbidden, redirect } from "next/navigation";

import type { Role } from "@/lib/client/auth/roles";
import { currentStaff, type CurrentStaff } from "./session";

/**
 * Where a person finishes setting up their account: two-step sign-in the team requires, or their own password in
 * place of the one an admin chose. The only page open to them until then.
 */
export const ENROL_PATH = "/account";

/** Pages check the session and role themselves; the proxy's redirect is only a shortcut. */
export async function requirePageStaff(roles: readonly Role[], returnTo: string): Promise<CurrentStaff> {
  const staff = await currentStaff();
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  if ((staff.mustEnrol || staff.mustChangePassword) && returnTo !== ENROL_PATH) redirect(ENROL_PATH);
  if (!roles.includes(staff.role)) forbidden();
  return staff;
}

import "server-only";

import { forbidden, redirect } from "next/navigation";

import { staffActor } from "@/lib/actors/actor";
import { can, type Permission } from "@/lib/actors/permissions";

import { currentStaff, type CurrentStaff } from "./session";

/**
 * Where a person finishes setting up their account: two-step sign-in the team requires, or their own password in
 * place of the one an admin chose. The only page open to them until then.
 */
export const ENROL_PATH = "/account";

/**
 * Pages check the session and the permission they need themselves (lib/actors/permissions.ts decides, docs/architecture.md
 * "Actors"); the proxy's redirect is only a shortcut.
 */
export async function requirePageStaff(permission: Permission, returnTo: string): Promise<CurrentStaff> {
  const staff = await currentStaff();
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  if ((staff.mustEnrol || staff.mustChangePassword) && returnTo !== ENROL_PATH) redirect(ENROL_PATH);
  if (!can(staffActor(staff), permission)) forbidden();
  return staff;
}

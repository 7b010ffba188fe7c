import "server-only";

import { cache } from "react";

import { auth } from "@/auth";
import { getDb } from "@/lib/db";
import type { StaffRow } from "@/lib/db/schema";

import { openSession } from "./sessions";

export type CurrentStaff = Pick<StaffRow, "id" | "email" | "name" | "role"> & {
  /** The session row this request belongs to (lib/auth/sessions.ts). */
  sessionId: string;
  twoStepEnabled: boolean;
  /** The team requires two-step sign-in and this person has not set it up: only the set-up is open to them. */
  mustEnrol: boolean;
  /** An admin chose this account's password: only the account page is open until the person picks their own. */
  mustChangePassword: boolean;
};

/**
 * The signed-in staff member, read from the database on every call: an ended session or a disabled
 * account stops at once (a cookie from before sessions were rows names none, and is signed out).
 */
export const currentStaff = cache(async function currentStaff(): Promise<CurrentStaff | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id || !session.sessionId) return null;
  const open = await openSession(await getDb(), session.sessionId, id);
  if (!open) return null;
  const { staff: row } = open;
  const twoStepEnabled = row.totpSecret !== null;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    sessionId: session.sessionId,
    twoStepEnabled,
    mustEnrol: open.require2fa && !twoStepEnabled,
    mustChangePassword: row.mustChangePassword,
  };
});

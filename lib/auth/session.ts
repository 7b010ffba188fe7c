import "server-only";

import { cache } from "react";

import { auth } from "@/auth";
import { getDb } from "@/lib/db";
import type { StaffRow } from "@/lib/db/schema";
import { findStaffById } from "@/lib/staff/repo";

export type CurrentStaff = Pick<StaffRow, "id" | "email" | "name" | "role"> & {
  /** The sign-in this request belongs to; sessions from before it was recorded count as one per person. */
  sessionId: string;
};

/** The signed-in staff member, read from the database on every call so a disabled account stops at once. */
export const currentStaff = cache(async function currentStaff(): Promise<CurrentStaff | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const row = await findStaffById(await getDb(), id);
  if (!row || row.disabled) return null;
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionId: session.sessionId ?? `staff:${row.id}` };
});

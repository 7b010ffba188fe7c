"use server";

import { signOut } from "@/auth";
import { writeAudit } from "@/lib/audit/write";
import { currentStaff } from "@/lib/auth/session";
import { endSession } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db";

export async function signOutAction(): Promise<void> {
  const staff = await currentStaff();
  if (staff) {
    const db = await getDb();
    // Ended here as well as in auth.ts's signOut event: a copy of the cookie is refused from now on.
    await endSession(db, staff.id, staff.sessionId, "signed_out");
    await writeAudit(db, { action: "auth.sign_out", actor: { id: staff.id, email: staff.email }, detail: { session: staff.sessionId } });
  }
  await signOut({ redirectTo: "/sign-in" });
}

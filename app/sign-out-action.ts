"use server";

import { signOut } from "@/auth";
import { writeAudit } from "@/lib/audit/write";
import { currentStaff } from "@/lib/auth/session";
import { getDb } from "@/lib/db";

export async function signOutAction(): Promise<void> {
  const staff = await currentStaff();
  if (staff) await writeAudit(await getDb(), { action: "auth.sign_out", actor: { id: staff.id, email: staff.email } });
  await signOut({ redirectTo: "/sign-in" });
}

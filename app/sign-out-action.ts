"use server";

import { signOut } from "@/auth";
import { staffActor } from "@/lib/actors/actor";
import { signOutOwnSession } from "@/lib/auth/own-account";
import { currentStaff } from "@/lib/auth/session";
import { getDb } from "@/lib/db";

export async function signOutAction(): Promise<void> {
  const staff = await currentStaff();
  // Ended here as well as in auth.ts's signOut event: a copy of the cookie is refused from now on.
  if (staff) await signOutOwnSession(await getDb(), staffActor(staff));
  await signOut({ redirectTo: "/sign-in" });
}

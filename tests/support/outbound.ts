import { randomBytes } from "node:crypto";

import { staffActor, type StaffActor } from "@/lib/actors/actor";
import type { Db } from "@/lib/db/client";
import { staff } from "@/lib/db/schema";
import type { Sandbox } from "@/sandbox/server";

// What the outgoing webhooks' suites share: an admin to act as, and what the sandbox's receiver recorded.

/** What the sandbox's receiver recorded of one delivery, newest first. */
export interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
  status: number;
}

/** A fresh admin (a row of its own, so suites sharing a database never meet), as the use cases take it. */
export async function newAdmin(db: Db): Promise<StaffActor> {
  const email = `admin-${randomBytes(4).toString("hex")}@example.test`;
  const [row] = await db.insert(staff).values({ email, name: "An Admin", role: "admin", passwordHash: "x" }).returning();
  if (!row) throw new Error("no staff");
  return staffActor({ ...row, sessionId: null });
}

/** Everything the sandbox's receiver `name` recorded. */
export async function receivedHooks(sandbox: Sandbox, name: string): Promise<ReceivedHook[]> {
  return (await (await fetch(`${sandbox.apiUrl}/sandbox/hooks/${name}`)).json()) as ReceivedHook[];
}

// For the request and payment logic tests: RequestDeps wired to a real database and a sandbox, a staff
// member to be `createdBy`, and fresh idempotency keys and consumer tags.
import { randomBytes } from "node:crypto";

import type { Db } from "@/lib/db/client";
import { staff } from "@/lib/db/schema";
import type { AmountUnit } from "@/lib/client/money";
import type { RequestDeps } from "@/lib/requests/deps";
import { createServiceClient, type ServiceClientOptions } from "@/lib/service/client";
import type { Sandbox } from "@/sandbox/server";

/** RequestDeps against the sandbox: short timeout, fast retry backoff. */
export function requestDeps(db: Db, sb: Sandbox, overrides: { amountUnit?: AmountUnit; service?: Partial<ServiceClientOptions> } = {}): RequestDeps {
  return {
    db,
    service: createServiceClient({
      baseUrl: sb.apiUrl,
      verifyBaseUrl: sb.verifyUrl,
      apiKey: sb.apiKey,
      timeoutMs: 500,
      backoffBaseMs: 5,
      ...overrides.service,
    }),
    amountUnit: overrides.amountUnit ?? "major",
    webhookUrl: "http://127.0.0.1:9/unused",
  };
}

/** A staff member to be `createdBy` (the column references staff). */
export async function insertStaff(db: Db, name = "Test Operator"): Promise<{ id: string; name: string }> {
  const [row] = await db
    .insert(staff)
    .values({ email: `op-${randomBytes(4).toString("hex")}@example.test`, name, role: "operator", passwordHash: "x" })
    .returning({ id: staff.id, name: staff.name });
  if (!row) throw new Error("staff insert returned nothing");
  return row;
}

/** A fresh idempotency key (8–64 of A-Za-z0-9_-). */
export function newKey(label: string): string {
  return `${label.replace(/[^A-Za-z0-9_-]/g, "_")}_${randomBytes(6).toString("hex")}`;
}

/** A fresh consumer tag, so each test has its own sandbox user who waits for a person. */
export function newTag(label: string): string {
  return `${label}.${randomBytes(3).toString("hex")}`;
}

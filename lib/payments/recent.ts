import "server-only";

import { desc } from "drizzle-orm";

import type { Db } from "@/lib/db/client";
import { payments } from "@/lib/db/schema";

export interface RecentPayment {
  uuid: string;
  customerName: string;
  customerTag: string;
  settledAmount: string;
  verification: "unverified" | "verified" | "failed";
  receivedAt: string;
}

export async function recentPayments(db: Db, limit = 5): Promise<RecentPayment[]> {
  const rows = await db
    .select({
      uuid: payments.uuid,
      customerName: payments.customerName,
      customerTag: payments.customerTag,
      settledAmount: payments.settledAmount,
      verification: payments.verification,
      receivedAt: payments.receivedAt,
    })
    .from(payments)
    .orderBy(desc(payments.receivedAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() }));
}

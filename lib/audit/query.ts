import "server-only";

import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";

import type { Db } from "@/lib/db/client";
import { auditLog, type AuditRow } from "@/lib/db/schema";

export const AUDIT_PAGE_SIZE = 50;

export const auditFilterSchema = z.object({
  person: z.string().trim().toLowerCase().max(254).optional().catch(undefined),
  action: z
    .string()
    .trim()
    .regex(/^[a-z_.]{1,64}$/)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export async function queryAudit(db: Db, filter: AuditFilter): Promise<{ items: AuditRow[]; total: number }> {
  const where: SQL[] = [];
  if (filter.person) where.push(eq(auditLog.actorEmail, filter.person));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  const condition = where.length ? and(...where) : undefined;
  const [items, [totalRow]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(condition)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((filter.page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog).where(condition),
  ]);
  return { items, total: totalRow?.n ?? 0 };
}

export async function auditPeople(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ email: auditLog.actorEmail }).from(auditLog).orderBy(auditLog.actorEmail).limit(500);
  return rows.map((r) => r.email).filter((e): e is string => e !== null);
}

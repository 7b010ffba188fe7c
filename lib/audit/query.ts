import "server-only";

import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";

import { queryRows, type Db } from "@/lib/db/client";
import { auditLog, staff, type AuditRow } from "@/lib/db/schema";

export const AUDIT_PAGE_SIZE = 50;
/** The count stops here ("10,000+"): a page's cost must not grow with the log. */
export const AUDIT_COUNT_CAP = 10_000;

export const auditFilterSchema = z.object({
  person: z.string().trim().toLowerCase().max(254).optional().catch(undefined),
  action: z
    .string()
    .trim()
    .regex(/^[a-z_.]{1,64}$/)
    .optional()
    .catch(undefined),
  page: pageParamSchema.default(1),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export interface AuditPage {
  items: AuditRow[];
  /** Matching rows, counted up to the cap. */
  total: number;
  /** More than the cap match (show "10,000+"); pages past the cap are not offered. */
  totalCapped: boolean;
}

export async function queryAudit(db: Db, filter: AuditFilter, cap = AUDIT_COUNT_CAP): Promise<AuditPage> {
  const where: SQL[] = [];
  if (filter.person) where.push(eq(auditLog.actorEmail, filter.person));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  const condition = where.length ? and(...where) : undefined;
  const [items, [counted]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(condition)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      // The oldest page offered is the cap's: OFFSET never walks past it.
      .offset((Math.min(filter.page, Math.ceil(cap / AUDIT_PAGE_SIZE)) - 1) * AUDIT_PAGE_SIZE),
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from ${auditLog} ${condition ? sql`where ${condition}` : sql``} limit ${cap + 1}) as capped`,
    ),
  ]);
  const n = counted?.n ?? 0;
  return { items, total: Math.min(n, cap), totalCapped: n > cap };
}

/** The person filter's choices: staff accounts (never e-mails typed at the sign-in form). */
export async function auditPeople(db: Db): Promise<string[]> {
  const rows = await db.select({ email: staff.email }).from(staff).orderBy(staff.email).limit(1000);
  return rows.map((r) => r.email);
}

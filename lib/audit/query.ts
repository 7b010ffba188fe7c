import "server-only";

import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";

import { pageParamSchema } from "@/lib/client/http/page-param";

import { queryRows, type Db } from "@/lib/db/client";
import { auditLog, campaigns, staff, type AuditRow } from "@/lib/db/schema";
import { isUuid } from "@/lib/http/route-params";

import { auditTargetKind } from "./words";

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

export interface AuditNames {
  /** Staff names by e-mail, for the rows' people and staff targets. */
  people: Map<string, string>;
  /** Campaign names by id, for the rows' campaign targets. */
  campaigns: Map<string, string>;
}

/** The names a page of rows shows for its people and targets (lib/audit/words.ts): two bounded reads, this page's rows only. */
export async function auditNames(db: Db, items: readonly AuditRow[]): Promise<AuditNames> {
  const emails = new Set<string>();
  const campaignIds = new Set<string>();
  for (const row of items) {
    if (row.actorEmail) emails.add(row.actorEmail);
    const kind = auditTargetKind(row.action);
    if (row.target && kind === "staff") emails.add(row.target);
    if (row.target && kind === "campaign" && isUuid(row.target)) campaignIds.add(row.target);
  }
  const [people, named] = await Promise.all([
    emails.size
      ? db
          .select({ email: staff.email, name: staff.name })
          .from(staff)
          .where(inArray(staff.email, [...emails]))
      : [],
    campaignIds.size
      ? db
          .select({ id: campaigns.id, name: campaigns.name })
          .from(campaigns)
          .where(inArray(campaigns.id, [...campaignIds]))
      : [],
  ]);
  return { people: new Map(people.map((p) => [p.email, p.name])), campaigns: new Map(named.map((c) => [c.id, c.name])) };
}

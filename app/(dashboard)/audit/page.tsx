import Link from "next/link";

import { inputClass } from "@/components/ui/field";
import { AUDIT_PAGE_SIZE, auditFilterSchema, auditPeople, queryAudit } from "@/lib/audit-query";
import type { AuditAction } from "@/lib/audit";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ADMINS } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";

export const metadata = { title: "Audit log" };

const ACTIONS: AuditAction[] = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_in_throttled",
  "auth.sign_out",
  "staff.created",
  "staff.role_changed",
  "staff.disabled",
  "staff.enabled",
  "staff.password_reset",
  "request.created",
  "payment.reverify",
];

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff(ADMINS, "/audit");
  const raw = await searchParams;
  const filter = auditFilterSchema.parse({ person: raw.person || undefined, action: raw.action || undefined, page: raw.page });
  const db = await getDb();
  const [{ items, total }, people] = await Promise.all([queryAudit(db, filter), auditPeople(db)]);
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const pageHref = (page: number) => {
    const q = new URLSearchParams();
    if (filter.person) q.set("person", filter.person);
    if (filter.action) q.set("action", filter.action);
    q.set("page", String(page));
    return `/audit?${q.toString()}`;
  };

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Audit log</h1>
      <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
        <div>
          <label htmlFor="person" className="block text-sm font-medium text-slate-700">Person</label>
          <select id="person" name="person" defaultValue={filter.person ?? ""} className={inputClass}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p} value={p}>{p}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="action" className="block text-sm font-medium text-slate-700">Action</label>
          <select id="action" name="action" defaultValue={filter.action ?? ""} className={inputClass}>
            <option value="">All actions</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700">Filter</button>
      </form>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Audit entries">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Audit entries, newest first</caption>
          <thead className="bg-slate-50 text-left text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">When (UTC)</th>
              <th scope="col" className="px-3 py-2 font-medium">Who</th>
              <th scope="col" className="px-3 py-2 font-medium">Action</th>
              <th scope="col" className="px-3 py-2 font-medium">Target</th>
              <th scope="col" className="px-3 py-2 font-medium">From</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {items.length === 0 ? (
              <tr>
                <td colSpan={5} className="px-3 py-6 text-center text-slate-600">No entries match.</td>
              </tr>
            ) : (
              items.map((row) => (
                <tr key={row.id} data-testid="audit-row">
                  <td className="px-3 py-2 whitespace-nowrap"><time dateTime={row.at.toISOString()}>{row.at.toISOString().replace("T", " ").slice(0, 19)}</time></td>
                  <td className="px-3 py-2 break-all">{row.actorEmail ?? "—"}</td>
                  <td className="px-3 py-2 font-mono text-xs">{row.action}</td>
                  <td className="px-3 py-2 break-all">{row.target ?? "—"}</td>
                  <td className="px-3 py-2">{row.ip ?? "—"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
        {filter.page > 1 ? <Link href={pageHref(filter.page - 1)} className="underline">Newer</Link> : null}
        <span>Page {filter.page} of {pages}</span>
        {filter.page < pages ? <Link href={pageHref(filter.page + 1)} className="underline">Older</Link> : null}
      </nav>
    </div>
  );
}

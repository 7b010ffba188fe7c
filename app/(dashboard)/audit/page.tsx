import { plainAddress } from "@/lib/http/address";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { Pager } from "@/components/ui/pager";
import { DataTable, Td } from "@/components/ui/table";
import { AUDIT_PAGE_SIZE, auditFilterSchema, auditPeople, queryAudit } from "@/lib/audit/query";
import { AUDIT_ACTIONS } from "@/lib/audit/write";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { ADMINS } from "@/lib/client/auth/roles";
import { getDb } from "@/lib/db";

export const metadata = { title: "Audit log" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff(ADMINS, "/audit");
  const raw = await searchParams;
  const filter = auditFilterSchema.parse({ person: raw.person || undefined, action: raw.action || undefined, page: raw.page });
  const db = await getDb();
  const [{ items, total, totalCapped }, people] = await Promise.all([queryAudit(db, filter), auditPeople(db)]);
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
        <LabelledControl id="person" label="Person">
          <select id="person" name="person" defaultValue={filter.person ?? ""} className={inputClass}>
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </LabelledControl>
        <LabelledControl id="action" label="Action">
          <select id="action" name="action" defaultValue={filter.action ?? ""} className={inputClass}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </LabelledControl>
        <Button type="submit">Filter</Button>
      </form>
      <DataTable
        label="Audit entries"
        caption="Audit entries, newest first"
        columns={["When", "Who", "Action", "Target", "From"]}
        empty={items.length === 0 ? "No entries match." : null}
      >
        {items.map((row) => (
          <tr key={row.id} data-testid="audit-row">
            <Td className="whitespace-nowrap">
              <LocalTime iso={row.at.toISOString()} />
            </Td>
            <Td className="break-all">{row.actorEmail ?? (row.groupKey ? "unknown (not kept)" : "—")}</Td>
            <Td className="font-mono text-xs">
              {row.action}
              {row.count > 1 ? <span data-testid="audit-count"> ×{row.count.toLocaleString("en")}</span> : null}
            </Td>
            <Td className="break-all">{row.target ?? "—"}</Td>
            <Td>{row.ip ? plainAddress(row.ip) : "—"}</Td>
          </tr>
        ))}
      </DataTable>
      <Pager newerHref={filter.page > 1 ? pageHref(filter.page - 1) : null} olderHref={filter.page < pages ? pageHref(filter.page + 1) : null}>
        Page {filter.page} of {pages.toLocaleString("en")}
        {totalCapped ? "+" : ""}
      </Pager>
    </div>
  );
}

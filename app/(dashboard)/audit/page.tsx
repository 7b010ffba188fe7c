import { plainAddress } from "@/lib/http/address";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { Pager } from "@/components/ui/pager";
import { OneLine } from "@/components/ui/one-line";
import { DataTable, Td } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { AUDIT_PAGE_SIZE, auditFilterSchema, auditNames, auditPeople, queryAudit } from "@/lib/audit/query";
import { auditLabel, auditSentence, auditTargetHref, auditTargetKind, auditTargetText } from "@/lib/audit/words";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { getDb } from "@/lib/db";

export const metadata = { title: "Audit log" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function AuditPage({ searchParams }: { searchParams: Search }) {
  await requirePageStaff("audit.read", "/audit");
  const raw = await searchParams;
  const filter = auditFilterSchema.parse({ person: raw.person || undefined, action: raw.action || undefined, page: raw.page });
  const db = await getDb();
  const [{ items, total, totalCapped }, people] = await Promise.all([queryAudit(db, filter), auditPeople(db)]);
  const names = await auditNames(db, items);
  // A target's name: the staff member's or the campaign's, when the account or campaign still exists.
  const targetName = (action: string, target: string | null): string | null => {
    if (!target) return null;
    const kind = auditTargetKind(action);
    return (kind === "staff" ? names.people.get(target) : kind === "campaign" ? names.campaigns.get(target) : undefined) ?? null;
  };
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
      {/* Keyed by the filter, so a select never keeps an old value when the page re-renders in place. */}
      <form key={`${filter.person ?? ""}|${filter.action ?? ""}`} method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter the audit log">
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
                {auditLabel(a)}
              </option>
            ))}
          </select>
        </LabelledControl>
        <Button type="submit">Filter</Button>
      </form>
      <DataTable
        label="Audit entries"
        caption="Audit entries, newest first"
        columns={["When", "Who", { label: "What happened", lead: true }, "About", "From"]}
        empty={items.length === 0 ? "No entries match." : null}
      >
        {items.map((row) => {
          const name = targetName(row.action, row.target);
          const about = auditTargetText(row.action, row.target, name);
          const href = auditTargetHref(row.action, row.target);
          const actorName = row.actorEmail ? names.people.get(row.actorEmail) : undefined;
          return (
            <tr key={row.id} data-testid="audit-row" data-action={row.action} className="align-top">
              <Td className="whitespace-nowrap">
                <LocalTime iso={row.at.toISOString()} />
              </Td>
              <Td className="max-w-[16rem]">
                {row.actorEmail ? (
                  <>
                    {actorName ? <span className="block">{actorName}</span> : null}
                    <OneLine text={row.actorEmail} className={actorName ? "text-xs text-slate-600" : undefined} />
                  </>
                ) : row.groupKey ? (
                  "unknown (not kept)"
                ) : (
                  "—"
                )}
              </Td>
              <Td className="max-w-md">
                {auditSentence(row.action, { detail: row.detail, target: row.target, targetName: name })}
                {row.count > 1 ? <span data-testid="audit-count"> ×{row.count.toLocaleString("en")}</span> : null}
              </Td>
              <Td className="max-w-[16rem]">
                {about === null ? (
                  "—"
                ) : href ? (
                  <TextLink href={href} hoverUnderline data-testid="audit-target">
                    <OneLine text={about} />
                  </TextLink>
                ) : (
                  <OneLine text={about} />
                )}
                {/* A person named by their name also shows the e-mail the row was written with. */}
                {name && auditTargetKind(row.action) === "staff" && row.target ? <OneLine text={row.target} className="text-xs text-slate-600" /> : null}
              </Td>
              <Td className="whitespace-nowrap">{row.ip ? plainAddress(row.ip) : "—"}</Td>
            </tr>
          );
        })}
      </DataTable>
      <Pager newerHref={filter.page > 1 ? pageHref(filter.page - 1) : null} olderHref={filter.page < pages ? pageHref(filter.page + 1) : null}>
        Page {filter.page} of {pages.toLocaleString("en")}
        {totalCapped ? "+" : ""}
      </Pager>
    </div>
  );
}

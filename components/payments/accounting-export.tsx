import { buttonClasses } from "@/components/ui/button";
import { dayBookSearch } from "@/lib/client/reports/range";
import type { DayRange } from "@/lib/client/time/day-range";

// The accountant's files (docs/architecture.md "Closing the books"): the payments and fees of the days in view, as Xero or QuickBooks import them.
// Only the days apply (this month so far when none are chosen), so the file always matches the day book.
export function AccountingExport({ range }: { range: DayRange }) {
  const href = (format: "xero" | "quickbooks") => `/api/payments/export${dayBookSearch(range, { format })}`;
  const days = range.from || range.to ? `${range.from ?? "…"} to ${range.to ?? "today"}` : "this month so far";
  return (
    <section aria-labelledby="accounting-export" className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <h2 id="accounting-export" className="font-medium text-slate-900">
        Export for accounting
      </h2>
      <p className="text-slate-700">Every payment and its fee received {days}; the other filters do not apply.</p>
      <span className="flex flex-wrap gap-2">
        <a href={href("xero")} download className={buttonClasses("secondary")}>
          Xero CSV
        </a>
        <a href={href("quickbooks")} download className={buttonClasses("secondary")}>
          QuickBooks CSV
        </a>
      </span>
    </section>
  );
}

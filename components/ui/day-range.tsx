import Link from "next/link";
import type { UseFormRegisterReturn } from "react-hook-form";

import { currentQuickRange, quickRanges, type DayRange } from "@/lib/client/time/day-range";

import { LabelledControl, inputClass } from "./field";

// A list's days (payments, requests), in TIMEZONE: quick-range links that set from/to in the URL, and the two date
// inputs of its filter form.

const BASE = "rounded-full px-3 py-1 text-sm font-medium ring-1";
const IDLE = `${BASE} bg-white text-slate-800 ring-slate-300 hover:bg-slate-50`;
const CURRENT = `${BASE} bg-brand-600 text-white ring-brand-600`;

/** `today` is the day now in TIMEZONE (from the server, so both renders agree); the range in view is marked current. */
export function QuickRanges({ today, range, href }: { today: string; range: DayRange; href: (days: Required<DayRange>) => string }) {
  const current = currentQuickRange(range, today);
  return (
    <nav aria-label="Quick date ranges" className="flex flex-wrap items-center gap-2">
      {quickRanges(today).map((r) => (
        <Link key={r.key} href={href(r)} aria-current={r.key === current ? "true" : undefined} className={r.key === current ? CURRENT : IDLE}>
          {r.label}
        </Link>
      ))}
    </nav>
  );
}

/** The filter form's from and to days (`<input type="date">`, whole days in TIMEZONE, both inclusive). */
export function DayRangeInputs({ what, from, to }: { what: string; from: UseFormRegisterReturn; to: UseFormRegisterReturn }) {
  return (
    <>
      <LabelledControl id="filter-from" label={`${what} from`}>
        <input id="filter-from" type="date" className={inputClass} {...from} />
      </LabelledControl>
      <LabelledControl id="filter-to" label={`${what} to (inclusive)`}>
        <input id="filter-to" type="date" className={inputClass} {...to} />
      </LabelledControl>
    </>
  );
}

"use client";

import { usePathname, useRouter } from "next/navigation";

import { LabelledControl, inputClass } from "@/components/ui/field";
import type { RowFilter } from "@/lib/client/campaigns/view";

import { campaignRowsSearch } from "./format";

export interface RowFilterOption {
  value: RowFilter;
  label: string;
}

/** The rows filter lives in the URL (?status=), so a filtered view can be shared and survives reload and live refreshes. */
export function RowFilterSelect({ value, options, allLabel }: { value: RowFilter | undefined; options: readonly RowFilterOption[]; allLabel: string }) {
  const router = useRouter();
  const pathname = usePathname();
  return (
    // Nothing to submit (a choice applies at once), so a search landmark rather than a form.
    <div role="search" aria-label="Filter rows" className="flex flex-wrap items-end gap-3">
      <LabelledControl id="rows-status" label="Show rows">
        <select
          id="rows-status"
          className={inputClass}
          value={value ?? ""}
          onChange={(e) =>
            router.push(`${pathname}${campaignRowsSearch({ status: (e.target.value || undefined) as RowFilter | undefined, page: 1 })}`, { scroll: false })
          }
        >
          <option value="">{allLabel}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </LabelledControl>
    </div>
  );
}

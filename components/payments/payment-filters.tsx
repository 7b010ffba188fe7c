"use client";

import { Button } from "@/components/ui/button";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { TextLink } from "@/components/ui/text-link";
import { paymentFilterFromSearch, type PaymentFilter } from "@/lib/client/payments/filters";

const STATES: [NonNullable<PaymentFilter["verified"]>, string][] = [
  ["unverified", "Unverified"],
  ["verified", "Verified"],
  ["failed", "Verification failed"],
];

/** Uncontrolled: the URL is the state, and `key` resets the fields when it changes. */
export function PaymentFilters({ filter, clearHref, onApply }: { filter: PaymentFilter; clearHref: string; onApply: (next: PaymentFilter) => void }) {
  const active = Boolean(filter.verified || filter.q || filter.tag || filter.from || filter.to);
  return (
    <form
      role="search"
      aria-label="Filter payments"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const next = paymentFilterFromSearch((name) => {
          const value = data.get(name);
          return typeof value === "string" ? value : null;
        });
        onApply({ ...next, page: 1 });
      }}
    >
      <LabelledControl id="filter-verified" label="Verification">
        <select id="filter-verified" name="verified" defaultValue={filter.verified ?? ""} className={inputClass}>
          <option value="">All</option>
          {STATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </LabelledControl>
      <LabelledControl id="filter-from" label="Received from">
        <input id="filter-from" name="from" type="date" defaultValue={filter.from ?? ""} className={inputClass} />
      </LabelledControl>
      <LabelledControl id="filter-to" label="Received to (inclusive)">
        <input id="filter-to" name="to" type="date" defaultValue={filter.to ?? ""} className={inputClass} />
      </LabelledControl>
      <LabelledControl id="filter-tag" label="Tag">
        <input id="filter-tag" name="tag" defaultValue={filter.tag ?? ""} placeholder="e.g. ada.obi" maxLength={33} autoComplete="off" className={inputClass} />
      </LabelledControl>
      <LabelledControl id="filter-q" label="Search">
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={filter.q ?? ""}
          placeholder="Name, description or uuid"
          maxLength={100}
          autoComplete="off"
          className={inputClass}
        />
      </LabelledControl>
      <div className="flex items-center gap-3">
        <Button type="submit">Apply</Button>
        {active ? (
          <TextLink href={clearHref} className="text-sm">
            Clear filters
          </TextLink>
        ) : null}
      </div>
    </form>
  );
}

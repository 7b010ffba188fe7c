"use client";

import Link from "next/link";
import type { ReactNode } from "react";

import { inputClass } from "@/components/ui/field";
import { paymentFilterFromSearch, type PaymentFilter } from "@/lib/payments/filters";

const STATES: [NonNullable<PaymentFilter["verified"]>, string][] = [
  ["unverified", "Unverified"],
  ["verified", "Verified"],
  ["failed", "Verification failed"],
];

function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}

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
      <Labelled id="filter-verified" label="Verification">
        <select id="filter-verified" name="verified" defaultValue={filter.verified ?? ""} className={inputClass}>
          <option value="">All</option>
          {STATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Labelled>
      <Labelled id="filter-from" label="Received from">
        <input id="filter-from" name="from" type="date" defaultValue={filter.from ?? ""} className={inputClass} />
      </Labelled>
      <Labelled id="filter-to" label="Received to (inclusive)">
        <input id="filter-to" name="to" type="date" defaultValue={filter.to ?? ""} className={inputClass} />
      </Labelled>
      <Labelled id="filter-tag" label="Tag">
        <input id="filter-tag" name="tag" defaultValue={filter.tag ?? ""} placeholder="e.g. ada.obi" maxLength={33} autoComplete="off" className={inputClass} />
      </Labelled>
      <Labelled id="filter-q" label="Search">
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
      </Labelled>
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Apply
        </button>
        {active ? (
          <Link href={clearHref} className="text-sm text-brand-700 underline">
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}

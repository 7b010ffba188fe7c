"use client";

import { useForm } from "react-hook-form";
import type { z } from "zod";

import { DayRangeInputs } from "@/components/ui/day-range";
import { LabelledControl, inputClass } from "@/components/ui/field";
import { FilterActions } from "@/components/ui/filter-actions";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import type { PaymentFilter, paymentFilterFormSchema } from "@/lib/client/payments/filters";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

const STATES: [NonNullable<PaymentFilter["verified"]>, string][] = [
  ["unverified", "Unverified"],
  ["verified", "Verified"],
  ["failed", "Verification failed"],
];

// The fields read with the rule the page and GET /api/payments use (anything unusable is ignored); the page is 1 again.
type FilterInput = z.input<typeof paymentFilterFormSchema>;
type FilterOutput = z.output<typeof paymentFilterFormSchema>;

/** The URL is the state, and `key` resets the fields (their defaults) when it changes. */
export function PaymentFilters({ filter, clearHref, onApply }: { filter: PaymentFilter; clearHref: string; onApply: (next: PaymentFilter) => void }) {
  const active = Boolean(filter.verified || filter.q || filter.tag || filter.from || filter.to);
  const form = useForm<FilterInput, unknown, FilterOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/payments/filters").then((m) => m.paymentFilterFormSchema)),
    defaultValues: { verified: filter.verified, from: filter.from ?? "", to: filter.to ?? "", tag: filter.tag ?? "", q: filter.q ?? "" },
  });
  return (
    <form
      role="search"
      aria-label="Filter payments"
      className="flex flex-wrap items-end gap-3"
      onSubmit={form.handleSubmit(({ verified, from, to, tag, q }) => onApply({ verified, from, to, tag: tag || undefined, q: q || undefined, page: 1 }))}
    >
      <ReadyFieldset>
        <LabelledControl id="filter-verified" label="Verification">
          <select id="filter-verified" className={inputClass} {...form.register("verified")}>
            <option value="">All</option>
            {STATES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </LabelledControl>
        <DayRangeInputs what="Received" from={form.register("from")} to={form.register("to")} />
        <LabelledControl id="filter-tag" label="Tag">
          <input id="filter-tag" placeholder="e.g. ada.obi" maxLength={33} autoComplete="off" className={inputClass} {...form.register("tag")} />
        </LabelledControl>
        <LabelledControl id="filter-q" label="Search">
          <input
            id="filter-q"
            type="search"
            placeholder="Name, description or uuid"
            maxLength={100}
            autoComplete="off"
            className={inputClass}
            {...form.register("q")}
          />
        </LabelledControl>
        <FilterActions submitLabel="Apply" clearHref={active ? clearHref : null} />
      </ReadyFieldset>
    </form>
  );
}

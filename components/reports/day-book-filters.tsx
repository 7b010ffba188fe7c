"use client";

import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { Field, inputClass } from "@/components/ui/field";
import { FilterActions } from "@/components/ui/filter-actions";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import type { dayBookFormSchema } from "@/lib/client/reports/daily";
import { MAX_REPORT_DAYS, daysInRange } from "@/lib/client/reports/range";
import type { DayRange } from "@/lib/client/time/day-range";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type RangeInput = z.input<typeof dayBookFormSchema>;
type RangeOutput = z.output<typeof dayBookFormSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The day book's first and last day (whole days in TIMEZONE, both included), checked by the route's rule before the
 * URL changes. The fields start at the days in view; `key` resets them when the URL does.
 */
export function DayBookFilters({ range, clearHref, onApply }: { range: Required<DayRange>; clearHref: string | null; onApply: (next: DayRange) => void }) {
  const form = useForm<RangeInput, unknown, RangeOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/reports/daily").then((m) => m.dayBookFormSchema)),
    defaultValues: { from: range.from, to: range.to },
  });
  const [from, to] = useWatch({ control: form.control, name: ["from", "to"] });
  const { errors } = form.formState;
  const chosen = typeof from === "string" && typeof to === "string" && DAY.test(from) && DAY.test(to) && to >= from ? daysInRange(from, to) : null;
  return (
    <form
      role="search"
      aria-label="Choose the days"
      className="flex flex-wrap items-start gap-3"
      onSubmit={form.handleSubmit(({ from: first, to: last }) => onApply({ from: first, to: last }))}
    >
      <ReadyFieldset>
        <Field id="book-from" label="First day">
          <input id="book-from" type="date" className={inputClass} {...form.register("from")} />
        </Field>
        <Field
          id="book-to"
          label="Last day (included)"
          error={errors.to?.message}
          hint={chosen === null ? undefined : `${chosen} day${chosen === 1 ? "" : "s"} (at most ${MAX_REPORT_DAYS})`}
        >
          <input
            id="book-to"
            type="date"
            className={inputClass}
            aria-invalid={errors.to ? true : undefined}
            aria-describedby={errors.to ? "book-to-error" : chosen === null ? undefined : "book-to-hint"}
            {...form.register("to")}
          />
        </Field>
        <div className="pt-6">
          <FilterActions submitLabel="Show" clearHref={clearHref} />
        </div>
      </ReadyFieldset>
    </form>
  );
}

import { cardClasses } from "./card";
import { Detail } from "./detail";

// A list's totals for its whole filter (payments, requests): labelled cards, announced when the filter changes.

export interface TotalCard {
  label: string;
  value: string;
  testId: string;
  /** A second line under the value (a count beside an amount). */
  note?: string;
}

export function TotalsGrid({ heading, testId, cards, columns }: { heading: string; testId: string; cards: readonly TotalCard[]; columns: string }) {
  const headingId = `${testId}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="sr-only">
        {heading}
      </h2>
      <dl className={`grid gap-3 ${columns}`} aria-live="polite" data-testid={testId}>
        {cards.map((c) => (
          <Detail
            key={c.testId}
            label={c.label}
            testId={c.testId}
            className={cardClasses("p-3")}
            valueClassName="text-lg font-semibold break-words tabular-nums"
          >
            {c.value}
            {c.note ? <span className="block text-xs font-normal text-slate-600">{c.note}</span> : null}
          </Detail>
        ))}
      </dl>
    </section>
  );
}

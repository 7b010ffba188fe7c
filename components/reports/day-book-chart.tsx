import { Card } from "@/components/ui/card";
import type { DayBook } from "@/lib/client/reports/daily";
import { formatMajor, rescale, toDecimal } from "@/lib/client/money";

import { dayLabel, spansYears } from "./format";

const WIDTH = 300;
const HEIGHT = 100;

const money = (amount: string) => formatMajor("NGN", amount);
const kobo = (amount: string) => rescale(toDecimal(amount), 2);

/**
 * Each day's settled amount beside the main wallet's balance change (left bar and right bar), from a shared zero line:
 * a change can be negative, so bars below the line are falls. Scaled in exact kobo (bigint); a day with no balance
 * reading has no right bar. The summary, each bar's title and a hidden table say the same in words.
 */
export function DayBookChart({ book }: { book: DayBook }) {
  const { days, total } = book;
  const withYear = spansYears(book.from, book.to);
  const label = (day: string) => dayLabel(day, withYear);
  const settled = days.map((d) => kobo(d.payments.settled));
  const change = days.map((d) => (d.balance ? kobo(d.balance.change) : null));
  const values = [...settled, ...change.filter((k): k is bigint => k !== null)];
  const top = values.reduce((m, k) => (k > m ? k : m), 0n);
  const bottom = values.reduce((m, k) => (k < m ? k : m), 0n);
  const span = top - bottom;
  // Heights in thousandths, from bigints, so huge amounts scale without float error.
  const y = (k: bigint) => (span === 0n ? HEIGHT - 1 : 1 + (Number(((top - k) * 1000n) / span) / 1000) * (HEIGHT - 2));
  const zero = y(0n);
  const slot = WIDTH / Math.max(1, days.length);
  const bar = slot * 0.38;
  const first = days[0]?.date ?? book.from;
  const last = days[days.length - 1]?.date ?? book.to;
  const range = `${label(first)} to ${label(last)}`;
  const read = days.filter((d) => d.balance !== null).length;
  const changeText = total.balance
    ? `the main wallet's balance changed by ${money(total.balance.change)} from its first reading to its last`
    : "there was no balance reading";
  const summary = `Bar chart of the amount settled and the balance change per day, ${range}: ${money(total.payments.settled)} settled in total; ${changeText}${
    total.balance ? ` (readings on ${read} day${read === 1 ? "" : "s"})` : ""
  }.`;

  return (
    <Card as="section" aria-labelledby="day-book-chart-heading" className="p-4">
      <h2 id="day-book-chart-heading" className="text-lg font-semibold">
        Settled against balance change
      </h2>
      <p className="text-sm text-slate-700">
        {money(total.payments.settled)} settled; balance change {total.balance ? money(total.balance.change) : "— (no readings)"}.
      </p>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        <li className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-brand-600" />
          Settled (left bar)
        </li>
        <li className="flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-amber-600" />
          Balance change (right bar; below the line is a fall)
        </li>
      </ul>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="mt-3 h-40 w-full"
        data-testid="day-book-chart"
      >
        <line x1="0" y1={zero} x2={WIDTH} y2={zero} className="stroke-slate-400" strokeWidth="0.5" />
        {days.map((d, i) => {
          const s = settled[i] ?? 0n;
          const c = change[i] ?? null;
          const x = i * slot + slot * 0.1;
          const sy = y(s);
          const cy = c === null ? zero : y(c);
          return (
            <g key={d.date}>
              <rect x={x} y={Math.min(sy, zero)} width={bar} height={Math.abs(zero - sy)} className="fill-brand-600">
                <title>{`${label(d.date)}: ${money(d.payments.settled)} settled`}</title>
              </rect>
              {c === null || d.balance === null ? null : (
                <rect x={x + bar + slot * 0.04} y={Math.min(cy, zero)} width={bar} height={Math.abs(zero - cy)} className="fill-amber-600">
                  <title>{`${label(d.date)}: balance change ${money(d.balance.change)}`}</title>
                </rect>
              )}
            </g>
          );
        })}
      </svg>
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{label(first)}</span>
        <span>{label(last)}</span>
      </div>
      {/* In a clipping box: an sr-only table's cells would still widen a phone's page (a table ignores its own overflow). */}
      <div className="sr-only">
        <table>
          <caption>Amount settled and balance change per day, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Settled</th>
              <th scope="col">Balance change</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{label(d.date)}</th>
                <td>{money(d.payments.settled)}</td>
                <td>{d.balance ? money(d.balance.change) : "no reading"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

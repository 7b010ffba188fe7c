"use client";

import { useQuery } from "@tanstack/react-query";

import { Card } from "@/components/ui/card";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Skeleton } from "@/components/ui/skeleton";
import { addDecimals, formatMajor, rescale, toDecimal } from "@/lib/client/money";
import { settledPerDayQuery } from "@/lib/client/query/options";
import type { SettledDay } from "@/lib/payments/view";

// Days arrive as "YYYY-MM-DD" already in TIMEZONE; formatting them at UTC midnight keeps the date as it is.
const dayLabel = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const day = (iso: string) => dayLabel.format(new Date(`${iso}T00:00:00Z`));

const WIDTH = 300;
const HEIGHT = 100;

/** The chart's query (prefetched by the page), live through `payment.recorded` events. */
export function SettledChart() {
  const query = useQuery(settledPerDayQuery());
  if (query.isError) return <ErrorPanel title="The chart could not be loaded" message={query.error.message} />;
  if (query.isPending) return <Skeleton className="h-52" />;
  return <SettledChartView days={query.data} />;
}

/** Bars scaled in exact kobo (bigint); the total is an exact decimal sum, never a float one. */
export function SettledChartView({ days }: { days: SettledDay[] }) {
  const kobo = days.map((d) => rescale(toDecimal(d.settled), 2));
  const max = kobo.reduce((m, k) => (k > m ? k : m), 0n);
  const peak = kobo.indexOf(max);
  const active = kobo.filter((k) => k > 0n).length;
  const total = formatMajor("NGN", addDecimals(days.map((d) => toDecimal(d.settled))));
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  const range = first ? `${day(first)} to ${day(last)}` : "the last 30 days";
  const summary =
    max === 0n
      ? `Bar chart of the amount settled per day, ${range}: nothing was settled.`
      : `Bar chart of the amount settled per day, ${range}: ${total} in total on ${active} day${active === 1 ? "" : "s"}; the most, ${formatMajor("NGN", days[peak]?.settled ?? "0")}, on ${day(days[peak]?.day ?? first)}.`;
  const slot = WIDTH / Math.max(1, days.length);

  return (
    <Card as="section" aria-labelledby="settled-chart-heading" className="p-4">
      <h2 id="settled-chart-heading" className="text-lg font-semibold">
        Settled per day, last {days.length} days
      </h2>
      <p className="text-sm text-slate-700">
        {total} settled in total{max > 0n ? `; most in a day ${formatMajor("NGN", days[peak]?.settled ?? "0")}` : ""}.
      </p>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="mt-3 h-32 w-full"
        data-testid="settled-chart"
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} className="stroke-slate-300" strokeWidth="1" />
        {days.map((d, i) => {
          const k = kobo[i] ?? 0n;
          // Ratio in thousandths, from bigints, so huge amounts scale without float error.
          const h = max === 0n ? 0 : (Number((k * 1000n) / max) / 1000) * (HEIGHT - 2);
          return (
            <rect key={d.day} x={i * slot + slot * 0.15} y={HEIGHT - 1 - h} width={slot * 0.7} height={h} className="fill-brand-600">
              <title>{`${day(d.day)}: ${formatMajor("NGN", d.settled)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-600">
        <span>{first ? day(first) : ""}</span>
        <span>{last ? day(last) : ""}</span>
      </div>
      <table className="sr-only">
        <caption>Amount settled per day, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Settled</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{formatMajor("NGN", d.settled)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

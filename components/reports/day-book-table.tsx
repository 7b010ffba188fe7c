import Link from "next/link";
import type { ReactNode } from "react";

import { Badge } from "@/components/ui/badge";
import { DataTable, Td, type Column } from "@/components/ui/table";
import type { DayBook, DayEntry } from "@/lib/client/reports/daily";
import { formatMajor } from "@/lib/client/money";

import { dayLabel, isZero, spansYears } from "./format";

// Amounts in the table are naira without the currency on each cell (the headers say NGN), so the book fits 1,280 px.
const money = (amount: string) => formatMajor("NGN", amount).replace(/^NGN\s*/, "");

const COLUMNS: Column[] = [
  "Day",
  { label: "Requests sent", align: "right" },
  { label: "Accepted", align: "right" },
  { label: "Declined", align: "right" },
  { label: "Failed", align: "right" },
  { label: "Asked (NGN)", align: "right" },
  { label: "Accepted amount (NGN)", align: "right" },
  { label: "Payments", align: "right", lead: true },
  { label: "Paid (NGN)", align: "right" },
  { label: "Fees (NGN)", align: "right" },
  { label: "Settled (NGN)", align: "right", lead: true },
  { label: "Verified", align: "right" },
  { label: "Balance change (NGN)", align: "right" },
  { label: "Unexplained (NGN)", align: "right", lead: true },
  { label: "Open exceptions", align: "right" },
];

const NUM = "px-2! text-right tabular-nums";
const MONEY = "px-2! text-right whitespace-nowrap tabular-nums";

/** "—" to the eye, words to a screen reader: a value there is none of (no balance reading that day). */
function None({ words }: { words: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{words}</span>
    </>
  );
}

/** Not zero is what needs a look: said in words ("Check"), not by colour alone. */
function Unexplained({ amount, day }: { amount: string | null; day: string | null }) {
  if (amount === null) return <None words="no balance reading" />;
  if (isZero(amount)) return <>{money(amount)}</>;
  const figure = (
    <span className="inline-flex flex-wrap items-center justify-end gap-1">
      <Badge tone="warning">Check</Badge>
      <span className="font-semibold text-amber-900">{money(amount)}</span>
    </span>
  );
  // A day's figure points to what may explain it: the exceptions opened that day and still open.
  return day ? (
    <Link href={dayExceptions(day)} className="underline decoration-amber-700 underline-offset-2" data-testid="unexplained-link">
      {figure}
      <span className="sr-only"> — the open exceptions of {day}</span>
    </Link>
  ) : (
    figure
  );
}

const dayExceptions = (day: string) => `/exceptions?day=${encodeURIComponent(day)}`;

type Row = Omit<DayEntry, "openExceptions"> & { openExceptions: number | null };

/**
 * One day's cells, or the total's (its open exceptions are not a sum: each day counts those open then). An array, not
 * a component: DataTable labels each cell of a row for the phone's card, so the cells are the row's own children.
 */
function cells(row: Row, head: ReactNode): ReactNode[] {
  const cell = (key: string, className: string, value: ReactNode, extra: Record<string, string | undefined> = {}) => (
    <Td key={key} className={className} data-testid={key} {...extra}>
      {value}
    </Td>
  );
  return [
    <th key="day" scope="row" className="order-first px-3 py-2 text-left font-semibold whitespace-nowrap">
      {head}
    </th>,
    cell("requests-sent", NUM, row.requests.sent),
    cell("requests-accepted", NUM, row.requests.accepted),
    cell("requests-declined", NUM, row.requests.declined),
    cell("requests-failed", NUM, row.requests.failed),
    cell("asked", MONEY, money(row.asked)),
    cell("accepted-amount", MONEY, money(row.acceptedAmount)),
    cell("payments", NUM, row.payments.count),
    cell("gross", MONEY, money(row.payments.gross)),
    cell("fees", MONEY, money(row.payments.fees)),
    cell("settled", MONEY, money(row.payments.settled)),
    cell("verified", NUM, row.payments.verified),
    cell(
      "balance-change",
      MONEY,
      row.balance ? (
        <>
          {money(row.balance.change)}
          <span className="block text-xs text-slate-600" data-testid="balance-readings">
            {money(row.balance.first)} → {money(row.balance.last)}
          </span>
        </>
      ) : (
        <None words="no reading" />
      ),
    ),
    cell("unexplained", MONEY, <Unexplained amount={row.unexplained} day={row.openExceptions === null ? null : row.date} />, {
      "data-unexplained": row.unexplained !== null && !isZero(row.unexplained) ? "" : undefined,
    }),
    cell(
      "open-exceptions",
      NUM,
      row.openExceptions === null ? (
        <None words="not summed" />
      ) : row.openExceptions > 0 ? (
        <Link href={dayExceptions(row.date)} className="underline underline-offset-2">
          {row.openExceptions}
        </Link>
      ) : (
        row.openExceptions
      ),
    ),
  ];
}

/** No request sent or answered, nothing asked, no payment, no balance reading and no exception opened that day. */
function quiet(d: DayEntry): boolean {
  const r = d.requests;
  return (
    r.sent + r.accepted + r.declined + r.failed === 0 &&
    d.payments.count === 0 &&
    isZero(d.asked) &&
    isZero(d.acceptedAmount) &&
    d.balance === null &&
    d.openExceptions === 0
  );
}

/** One row a day, oldest first, then the range's total; below `sm` each row is a card (DataTable). */
export function DayBookTable({ book, today }: { book: DayBook; today: string }) {
  const withYear = spansYears(book.from, book.to);
  const days = book.days.length;
  return (
    <DataTable label="Day book table" caption="The day book: one row a day, oldest first, then the total for the range" columns={COLUMNS}>
      {book.days.map((d) => {
        const head = (
          <>
            <time dateTime={d.date}>{dayLabel(d.date, withYear)}</time>
            {d.date === today ? (
              <>
                {" "}
                <span className="text-xs font-normal text-slate-600">(today)</span>
              </>
            ) : null}
          </>
        );
        // A day with nothing in it is one short line, not a row (or a phone's card) of zeros.
        return quiet(d) ? (
          <tr key={d.date} data-testid="day-row" data-day={d.date} data-quiet="">
            <th scope="row" className="order-first px-3 py-1 text-left font-semibold whitespace-nowrap text-slate-600">
              {head}
            </th>
            <Td colSpan={COLUMNS.length - 1} data-label="" className="py-1! text-slate-600">
              Nothing that day: no requests, payments or balance readings
            </Td>
          </tr>
        ) : (
          <tr key={d.date} data-testid="day-row" data-day={d.date}>
            {cells(d, head)}
          </tr>
        );
      })}
      <tr data-testid="day-book-total" className="bg-slate-50">
        {cells(
          { ...book.total, openExceptions: null },
          <>
            Total{" "}
            <span className="text-xs font-normal text-slate-600">
              ({days} day{days === 1 ? "" : "s"})
            </span>
          </>,
        )}
      </tr>
    </DataTable>
  );
}

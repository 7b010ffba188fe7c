import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import type { DayBook, DayEntry } from "@/lib/client/reports/daily";

import { DayBookChart } from "./day-book-chart";
import { DayBookTable } from "./day-book-table";
import { dayLabel, isZero, spansYears } from "./format";

function day(date: string, over: Partial<DayEntry> = {}): DayEntry {
  return {
    date,
    requests: { sent: 0, accepted: 0, declined: 0, failed: 0 },
    asked: "0.00",
    acceptedAmount: "0.00",
    payments: { count: 0, gross: "0.00", fees: "0.00", settled: "0.00", verified: 0 },
    balance: null,
    unexplained: null,
    openExceptions: 0,
    ...over,
  };
}

const BOOK: DayBook = {
  from: "2026-11-23",
  to: "2026-11-24",
  days: [
    day("2026-11-23"),
    day("2026-11-24", {
      requests: { sent: 3, accepted: 1, declined: 1, failed: 0 },
      asked: "4500.00",
      acceptedAmount: "1500.00",
      payments: { count: 1, gross: "1500.00", fees: "15.00", settled: "1485.00", verified: 1 },
      balance: { first: "10000.00", last: "11385.00", change: "1385.00" },
      unexplained: "-100.00",
    }),
  ],
  total: {
    date: "total",
    requests: { sent: 3, accepted: 1, declined: 1, failed: 0 },
    asked: "4500.00",
    acceptedAmount: "1500.00",
    payments: { count: 1, gross: "1500.00", fees: "15.00", settled: "1485.00", verified: 1 },
    balance: { first: "10000.00", last: "11385.00", change: "1385.00" },
    unexplained: "-100.00",
  },
};

/** The cells of the row marked `marker` (data-day or the total's test id), as text. */
function rowText(html: string, marker: string): string {
  const start = html.indexOf(">", html.indexOf(marker)) + 1;
  const end = html.indexOf("</tr>", start);
  return html
    .slice(start, end)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("day labels", () => {
  it("shows a day as Lagos dates read (the day as given, never shifted by the runner's zone)", () => {
    expect(dayLabel("2026-11-24")).toBe("Tue 24 Nov");
    expect(dayLabel("2026-11-24", true)).toBe("Tue, 24 Nov 2026");
    expect(spansYears("2025-12-01", "2026-01-31")).toBe(true);
    expect(spansYears("2026-01-01", "2026-12-31")).toBe(false);
  });

  it("knows a zero amount", () => {
    expect(["0.00", "-0.00", "0"].map(isZero)).toEqual([true, true, true]);
    expect(["0.01", "-100.00", "10.00", ""].map(isZero)).toEqual([false, false, false, false]);
  });
});

describe("DayBookTable", () => {
  const html = renderToStaticMarkup(createElement(DayBookTable, { book: BOOK, today: "2026-11-24" }));

  it("writes a row a day with every column (naira in the service's format, the currency in the headers), and one short line for a day with nothing", () => {
    expect(rowText(html, 'data-day="2026-11-24"')).toBe(
      "Tue 24 Nov (today) 3 1 1 0 4,500.00 1,500.00 1 1,500.00 15.00 1,485.00 1 1,385.00 10,000.00 → 11,385.00 Check -100.00 — the open exceptions of 2026-11-24 0",
    );
    expect(rowText(html, 'data-day="2026-11-23"')).toBe("Mon 23 Nov Nothing that day: no requests, payments or balance readings");
    expect(html).toContain("Settled (NGN)");
  });

  it("keeps a quiet day's full row when anything happened: a balance reading alone is something", () => {
    const read = renderToStaticMarkup(
      createElement(DayBookTable, {
        book: { ...BOOK, days: [day("2026-11-23", { balance: { first: "5.00", last: "5.00", change: "0.00" }, unexplained: "0.00" })] },
        today: "2026-11-24",
      }),
    );
    expect(rowText(read, 'data-day="2026-11-23"')).toBe("Mon 23 Nov 0 0 0 0 0.00 0.00 0 0.00 0.00 0.00 0 0.00 5.00 → 5.00 0.00 0");
  });

  it("ends with the total row, its open exceptions not summed", () => {
    expect(rowText(html, 'data-testid="day-book-total"')).toMatch(/^Total \(2 days\) 3 1 1 0 4,500\.00 .* Check -100\.00 — not summed$/);
  });

  it("labels every cell for the phone's card and marks a non-zero unexplained change in words", () => {
    expect(html).toContain('data-label="Unexplained (NGN)"');
    expect(html).toContain('data-label="Open exceptions"');
    expect(html.match(/data-unexplained=""/g)).toHaveLength(2);
    // The quiet day's line has no column label of its own (a phone's card shows just the words).
    expect(html).toContain('data-label=""');
  });
});

describe("DayBookChart", () => {
  const html = renderToStaticMarkup(createElement(DayBookChart, { book: BOOK }));

  it("draws both series with a summary, a title per bar and the same numbers in a table", () => {
    expect(html).toContain(
      'aria-label="Bar chart of the amount settled and the balance change per day, Mon 23 Nov to Tue 24 Nov: NGN 1,485.00 settled in total; the main wallet&#x27;s balance changed by NGN 1,385.00 from its first reading to its last (readings on 1 day)."',
    );
    expect(html).toContain("<title>Tue 24 Nov: NGN 1,485.00 settled</title>");
    expect(html).toContain("<title>Tue 24 Nov: balance change NGN 1,385.00</title>");
    // Two days, two settled bars, one balance bar (the first day has no reading).
    expect(html.match(/class="fill-brand-600"/g)).toHaveLength(2);
    expect(html.match(/class="fill-amber-600"/g)).toHaveLength(1);
    expect(html).toContain("<td>no reading</td>");
  });

  it("puts a fall below the zero line", () => {
    const falling: DayBook = { ...BOOK, days: [day("2026-11-24", { balance: { first: "100.00", last: "50.00", change: "-50.00" }, unexplained: "-50.00" })] };
    const svg = renderToStaticMarkup(createElement(DayBookChart, { book: falling }));
    const zero = Number(/<line x1="0" y1="([\d.]+)"/.exec(svg)?.[1]);
    const bar = /<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" class="fill-amber-600"/.exec(svg);
    expect(zero).toBeCloseTo(1, 5);
    expect(Number(bar?.[1])).toBeCloseTo(zero, 5);
    expect(Number(bar?.[2])).toBeGreaterThan(90);
  });
});

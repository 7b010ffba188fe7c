// A download as a table of named columns (payments, requests): one header, one formula-guarded row per item, and
// the one rule for times and file names, days and offsets in TIMEZONE (docs/decisions.md, exports).
import { dayOf, isoInZone } from "@/lib/client/time/zone";

import { csvRow } from "./row";

/** The most rows one download carries. */
export const CSV_MAX_ROWS = 50_000;

/** A column: its header and how to read its cell from an item (null: an empty cell). */
export type CsvColumn<T> = readonly [name: string, cell: (item: T) => string | null | undefined];

/** The header row, then one CRLF-terminated row per item. */
export function csvTable<T>(columns: readonly CsvColumn<T>[], items: readonly T[]): string {
  return csvRow(columns.map(([name]) => name)) + items.map((item) => csvRow(columns.map(([, cell]) => cell(item)))).join("");
}

/** A stored UTC instant (ISO) as the team reads it: ISO 8601 with TIMEZONE's offset, the same instant. */
export function csvTime(iso: string | null | undefined, timeZone: string): string | null {
  return iso ? isoInZone(new Date(iso), timeZone) : null;
}

/** `<what>-<day in TIMEZONE>.csv`, the day the file was made on. */
export function csvFilename(what: string, timeZone: string, now = new Date()): string {
  return `${what}-${dayOf(now, timeZone)}.csv`;
}

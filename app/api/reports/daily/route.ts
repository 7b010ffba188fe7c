import { withStaff } from "@/lib/auth/guard";
import { dayBookApiQuerySchema } from "@/lib/client/reports/daily";
import { dayBookRange } from "@/lib/client/reports/range";
import { dayOf } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { unprocessable } from "@/lib/http/api-error";
import { parseFields } from "@/lib/http/body";
import { csvResponse } from "@/lib/http/csv-response";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { dayBookCsv } from "@/lib/reports/day-book-csv";
import { readDayBook } from "@/lib/reports/daily";
import { firstActivityDay } from "@/lib/reports/first-activity";

export const dynamic = "force-dynamic";

/** The day book (docs/architecture.md "Closing the books"): ?from=&to= (days in TIMEZONE, this month so far by default, at most 366), format=csv. */
export const GET = withStaff("reports.read", async (request, { db }) => {
  const query = parseFields(dayBookApiQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const { timeZone } = getConfig();
  // The one rule the /reports page uses too (lib/client/reports/range.ts).
  const range = dayBookRange(query, dayOf(new Date(), timeZone), query.from || query.to ? null : await firstActivityDay(db, timeZone));
  if (!range.ok) throw unprocessable(range.message, { fieldErrors: { [range.field]: [range.fieldMessage] }, formErrors: [] });
  const { from, to } = range;
  const book = await readDayBook(db, from, to, timeZone);
  if (query.format === "csv") return csvResponse(dayBookCsv(book), csvFilename(`day-book-${from}-to-${to}`, timeZone));
  return ok(book, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

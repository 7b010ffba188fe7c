import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { dayBookQuerySchema, MAX_REPORT_DAYS } from "@/lib/client/reports/daily";
import { dayOf, monthStart } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { unprocessable } from "@/lib/http/api-error";
import { csvResponse } from "@/lib/http/csv-response";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { dayBookCsv } from "@/lib/reports/day-book-csv";
import { readDayBook } from "@/lib/reports/daily";

export const dynamic = "force-dynamic";

const DAY_MS = 86_400_000;

/** The day book (DESIGN §14): ?from=&to= (days in TIMEZONE, this month so far by default, at most 366), format=csv. */
export const GET = withStaff(ANY_STAFF, async (request, { db }) => {
  const query = dayBookQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  const { timeZone } = getConfig();
  const today = dayOf(new Date(), timeZone);
  const from = query.from ?? monthStart(query.to ?? today);
  const to = query.to ?? (from > today ? from : today);
  if (to < from)
    throw unprocessable("The last day is before the first; swap them.", { fieldErrors: { to: ["The last day is before the first"] }, formErrors: [] });
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
  if (days > MAX_REPORT_DAYS) {
    throw unprocessable(`That is ${days} days; the day book shows at most ${MAX_REPORT_DAYS} at once. Choose a shorter range.`, {
      fieldErrors: { to: [`At most ${MAX_REPORT_DAYS} days`] },
      formErrors: [],
    });
  }
  const book = await readDayBook(db, from, to, timeZone);
  if (query.format === "csv") return csvResponse(dayBookCsv(book), csvFilename(`day-book-${from}-to-${to}`, timeZone));
  return ok(book, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

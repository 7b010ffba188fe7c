import { withStaff } from "@/lib/auth/guard";
import { dayBookApiQuerySchema } from "@/lib/client/reports/daily";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { parseFields } from "@/lib/http/body";
import { csvResponse } from "@/lib/http/csv-response";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readAskedDayBook } from "@/lib/http/answers/reports";
import { dayBookCsv } from "@/lib/reports/day-book-csv";

export const dynamic = "force-dynamic";

/** The day book (docs/architecture.md "Closing the books"): ?from=&to= (days in TIMEZONE, this month so far by default, at most 366), format=csv. */
export const GET = withStaff("reports.read", async (request, { db }) => {
  const query = parseFields(dayBookApiQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const { timeZone } = getConfig();
  const book = await readAskedDayBook(db, query, timeZone);
  if (query.format === "csv") return csvResponse(dayBookCsv(book), csvFilename(`day-book-${book.from}-to-${book.to}`, timeZone));
  return ok(book, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

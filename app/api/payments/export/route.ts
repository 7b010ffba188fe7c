import { withStaff } from "@/lib/auth/guard";
import { exportQuerySchema } from "@/lib/client/payments/export-query";
import { getConfig } from "@/lib/config";
import { dayBookRange } from "@/lib/client/reports/range";
import { dayOf } from "@/lib/client/time/zone";
import { csvFilename } from "@/lib/csv/table";
import { tooManyRequests, unprocessable } from "@/lib/http/api-error";
import { parseFields } from "@/lib/http/body";
import { csvStreamResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";
import { accountingFile, countForExport, EXPORT_MAX_PAYMENTS } from "@/lib/payments/accounting-export";
import { takeExportSlot } from "@/lib/payments/export-slots";

export const dynamic = "force-dynamic";

/** Payments and fees for accounting (docs/architecture.md "Closing the books"): ?format=xero|quickbooks&from=&to= (days in TIMEZONE). */
export const GET = withStaff("payments.export", async (request, { db, staff }) => {
  const query = parseFields(exportQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const { timeZone } = getConfig();
  // The day book's rule for the days (this month so far by default, the last day not before the first, at most
  // 366), so an export always matches a day book the person can open.
  const range = dayBookRange(query, dayOf(new Date(), timeZone));
  if (!range.ok) throw unprocessable(range.message, { fieldErrors: { [range.field]: [range.fieldMessage] }, formErrors: [] });
  const { format } = query;
  const { from, to } = range;
  // One export a person and a few an instance at once; each is streamed a page at a time.
  const release = takeExportSlot(staff.id);
  if (!release)
    throw tooManyRequests("An export is already being made (yours, or the most this server makes at once). Try again when it has finished.", EXPORT_RETRY_MS);
  try {
    if ((await countForExport(db, { from, to }, timeZone)) > EXPORT_MAX_PAYMENTS)
      throw unprocessable(`More than ${EXPORT_MAX_PAYMENTS.toLocaleString("en")} payments fall on these days: export fewer days at a time.`, {
        fieldErrors: { to: ["Choose an earlier last day"] },
        formErrors: [],
      });
  } catch (error) {
    release();
    throw error;
  }
  return csvStreamResponse(accountingFile(db, format, { from, to }, timeZone), csvFilename(`payments-${format}`, timeZone), release);
});

/** How long a refused export is told to wait: a file of a month's payments takes a few seconds. */
const EXPORT_RETRY_MS = 10_000;

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

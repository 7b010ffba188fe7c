import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { exportQuerySchema } from "@/lib/client/payments/export-query";
import { getConfig } from "@/lib/config";
import { dayBookRange } from "@/lib/client/reports/range";
import { dayOf } from "@/lib/client/time/zone";
import { csvFilename } from "@/lib/csv/table";
import { unprocessable } from "@/lib/http/api-error";
import { parseFields } from "@/lib/http/body";
import { csvResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";
import { accountingCsv, EXPORT_MAX_PAYMENTS, paymentsForExport } from "@/lib/payments/accounting-export";

export const dynamic = "force-dynamic";

/** Payments and fees for accounting (docs/architecture.md "Closing the books"): ?format=xero|quickbooks&from=&to= (days in TIMEZONE). */
export const GET = withStaff(SENDERS, async (request, { db }) => {
  const query = parseFields(exportQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const { timeZone } = getConfig();
  // The day book's rule for the days (this month so far by default, the last day not before the first, at most
  // 366), so an export always matches a day book the person can open.
  const range = dayBookRange(query, dayOf(new Date(), timeZone));
  if (!range.ok) throw unprocessable(range.message, { fieldErrors: { [range.field]: [range.fieldMessage] }, formErrors: [] });
  const { format } = query;
  const { from, to } = range;
  const items = await paymentsForExport(db, { from, to }, timeZone);
  if (!items)
    throw unprocessable(`More than ${EXPORT_MAX_PAYMENTS.toLocaleString("en")} payments fall on these days: export fewer days at a time.`, {
      fieldErrors: { to: ["Choose an earlier last day"] },
      formErrors: [],
    });
  return csvResponse(accountingCsv(format, items, timeZone), csvFilename(`payments-${format}`, timeZone));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

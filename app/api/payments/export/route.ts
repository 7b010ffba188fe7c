import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { exportQuerySchema } from "@/lib/client/payments/export-query";
import { getConfig } from "@/lib/config";
import { dayBookRange } from "@/lib/client/reports/range";
import { dayOf } from "@/lib/client/time/zone";
import { csvFilename } from "@/lib/csv/table";
import { unprocessable } from "@/lib/http/api-error";
import { csvResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";
import { accountingCsv, EXPORT_MAX_PAYMENTS, paymentsForExport } from "@/lib/payments/accounting-export";
import { flattenError } from "zod";

export const dynamic = "force-dynamic";

/** Payments and fees for accounting (DESIGN §14): ?format=xero|quickbooks&from=&to= (days in TIMEZONE). */
export const GET = withStaff(SENDERS, async (request, { db }) => {
  const parsed = exportQuerySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!parsed.success) {
    const flat = flattenError(parsed.error);
    const field = Object.keys(flat.fieldErrors)[0] ?? "format";
    throw unprocessable(`${field}: ${flat.fieldErrors[field as keyof typeof flat.fieldErrors]?.[0] ?? "not understood"}.`, {
      fieldErrors: flat.fieldErrors,
      formErrors: flat.formErrors,
    });
  }
  const { timeZone } = getConfig();
  // The day book's rule for the days (this month so far by default, the last day not before the first, at most
  // 366), so an export always matches a day book the person can open.
  const range = dayBookRange(parsed.data, dayOf(new Date(), timeZone));
  if (!range.ok) throw unprocessable(range.message, { fieldErrors: { [range.field]: [range.fieldMessage] }, formErrors: [] });
  const { format } = parsed.data;
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

import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { exportQuerySchema } from "@/lib/client/payments/export-query";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { unprocessable } from "@/lib/http/api-error";
import { csvResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";
import { accountingCsv, paymentsForExport } from "@/lib/payments/accounting-export";
import { flattenError } from "zod";

export const dynamic = "force-dynamic";

/** Payments and fees for accounting (DESIGN §14): ?format=xero|quickbooks&from=&to= (days in TIMEZONE). */
export const GET = withStaff(SENDERS, async (request, { db }) => {
  const parsed = exportQuerySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!parsed.success) {
    const flat = flattenError(parsed.error);
    throw unprocessable(flat.fieldErrors.format?.[0] ?? "Choose format=xero or format=quickbooks", {
      fieldErrors: flat.fieldErrors,
      formErrors: flat.formErrors,
    });
  }
  const { timeZone } = getConfig();
  const { format, from, to } = parsed.data;
  const items = await paymentsForExport(db, { from, to }, timeZone);
  return csvResponse(accountingCsv(format, items, timeZone), csvFilename(`payments-${format}`, timeZone));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

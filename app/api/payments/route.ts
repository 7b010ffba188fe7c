import { getConfig } from "@/lib/config";
import { withStaff } from "@/lib/auth/guard";
import { ok } from "@/lib/http/envelope";
import { csvFilename } from "@/lib/csv/table";
import { csvResponse } from "@/lib/http/csv-response";
import { paymentsCsv } from "@/lib/payments/csv";
import { paymentFilterFromSearch } from "@/lib/client/payments/filters";
import { paymentsForCsv, readPaymentPage } from "@/lib/payments/query";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff("payments.read", async (request, { db, staff }) => {
  const params = request.nextUrl.searchParams;
  const filter = paymentFilterFromSearch((name) => params.get(name));
  const { timeZone } = getConfig();
  if (params.get("format") === "csv") {
    return csvResponse(paymentsCsv(await paymentsForCsv(db, filter, staff.role, timeZone), timeZone), csvFilename("payments", timeZone));
  }
  return ok(await readPaymentPage(db, filter, staff.role, timeZone), "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

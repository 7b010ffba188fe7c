import { getConfig } from "@/lib/config";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF } from "@/lib/client/auth/roles";
import { ok } from "@/lib/http/envelope";
import { csvFilename, paymentsCsv } from "@/lib/payments/csv";
import { paymentFilterFromSearch } from "@/lib/client/payments/filters";
import { paymentsForCsv, readPaymentPage } from "@/lib/payments/query";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff(ANY_STAFF, async (request, { db, staff }) => {
  const params = request.nextUrl.searchParams;
  const filter = paymentFilterFromSearch((name) => params.get(name));
  if (params.get("format") === "csv") {
    const body = paymentsCsv(await paymentsForCsv(db, filter, staff.role, getConfig().timeZone));
    return new Response(body, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${csvFilename()}"`,
        "Cache-Control": "no-store",
      },
    });
  }
  return ok(await readPaymentPage(db, filter, staff.role, getConfig().timeZone), "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

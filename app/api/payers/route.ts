import { withStaff } from "@/lib/auth/guard";
import { payerListFromSearch } from "@/lib/client/payers/search";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { csvResponse } from "@/lib/http/csv-response";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { payersCsv } from "@/lib/payers/csv";
import { payersForCsv, readPayerPage } from "@/lib/payers/queries";

export const dynamic = "force-dynamic";

/** Every tag asked or paid (docs/architecture.md "Payers and chasing"): ?q=&filter=&sort=&page=, or format=csv for the whole filter. */
export const GET = withStaff("payers.read", async (request, { db }) => {
  const params = request.nextUrl.searchParams;
  const query = payerListFromSearch((name) => params.get(name));
  if (params.get("format") === "csv") {
    const { timeZone } = getConfig();
    return csvResponse(payersCsv(await payersForCsv(db, query), timeZone), csvFilename("payers", timeZone));
  }
  return ok(await readPayerPage(db, query), "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

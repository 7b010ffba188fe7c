import { withStaff } from "@/lib/auth/guard";
import { jsonBodyMessage, parseFields, readJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { requestDeps } from "@/lib/requests/deps";
import { answerNewRequest } from "@/lib/http/answers/new-request";
import { sendNewRequest } from "@/lib/requests/new-request";
import { lacksClientKey } from "@/lib/requests/keys";
import { readRequestPage, requestsForCsv } from "@/lib/requests/list";
import { requestsCsv } from "@/lib/requests/csv";
import { newRequestSchema, requestListFromSearch } from "@/lib/client/requests/schemas";
import { getConfig } from "@/lib/config";
import { csvFilename } from "@/lib/csv/table";
import { csvResponse } from "@/lib/http/csv-response";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

// The list (one page and the totals of the whole filter) or, with ?format=csv, the whole filter as a file.
export const GET = withStaff("requests.read", async (request, { db }) => {
  const params = request.nextUrl.searchParams;
  const query = requestListFromSearch((name) => params.get(name));
  const { timeZone } = getConfig();
  if (params.get("format") === "csv") {
    return csvResponse(requestsCsv(await requestsForCsv(db, query, timeZone), timeZone), csvFilename("requests", timeZone));
  }
  return ok(await readRequestPage(db, query, timeZone), "OK", 200, { "Cache-Control": "no-store" });
});

export const POST = withStaff("requests.write", async (request, { db, actor }) => {
  const json = await readJsonBody(request);
  // A body without its idempotency key says so in its code (docs/architecture.md, "Error codes"); the field errors are the same.
  const body = parseFields(newRequestSchema, json, jsonBodyMessage, lacksClientKey(json) ? "idempotency_key_missing" : "validation_failed");
  return answerNewRequest(await sendNewRequest(requestDeps(db), actor, body));
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

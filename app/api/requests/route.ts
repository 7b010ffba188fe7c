import { withStaff } from "@/lib/auth/guard";
import { jsonBodyMessage, parseFields, readJsonBody } from "@/lib/http/body";
import { conflict, invalidField, serviceFailure } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { requestDeps } from "@/lib/requests/deps";
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
  const outcome = await sendNewRequest(requestDeps(db), actor, body);
  switch (outcome.kind) {
    case "do_not_ask":
      throw invalidField("This person asked not to be asked. Nothing was sent.", "tag", outcome.refusal);
    case "replayed":
      // A repeat of a send that failed reports the failure again, never a 200.
      if (outcome.request.status === "failed") {
        throw conflict(
          `This request was already tried and failed: ${outcome.request.error ?? "the service refused it"} Start a new request to try again.`,
          outcome.request,
        );
      }
      return ok(outcome.request, "Already sent: this is the same request");
    case "in_flight":
      throw conflict(
        "This request is still being sent to the service; look again in a moment (the list shows it when the service answers).",
        outcome.request,
        "idempotency_key_in_flight",
      );
    case "key_reused":
      throw conflict(
        "This idempotency key was already used for a different request; reload the form and try again.",
        outcome.request,
        "idempotency_key_reused",
      );
    case "created":
      return ok(outcome.request, "Request sent", 201);
    case "service_failed":
      throw serviceFailure(outcome.error, outcome.request);
  }
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

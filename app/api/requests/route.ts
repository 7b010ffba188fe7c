import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ANY_STAFF, SENDERS } from "@/lib/client/auth/roles";
import { jsonBodyMessage, parseFields, readJsonBody } from "@/lib/http/body";
import { conflict, invalidField, serviceFailure } from "@/lib/http/api-error";
import { doNotAskRefusal } from "@/lib/payers/do-not-ask";
import { ok } from "@/lib/http/envelope";
import { requestDeps } from "@/lib/requests/deps";
import { createFundRequest } from "@/lib/requests/create";
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
export const GET = withStaff(ANY_STAFF, async (request, { db }) => {
  const params = request.nextUrl.searchParams;
  const query = requestListFromSearch((name) => params.get(name));
  const { timeZone } = getConfig();
  if (params.get("format") === "csv") {
    return csvResponse(requestsCsv(await requestsForCsv(db, query, timeZone), timeZone), csvFilename("requests", timeZone));
  }
  return ok(await readRequestPage(db, query, timeZone), "OK", 200, { "Cache-Control": "no-store" });
});

export const POST = withStaff(SENDERS, async (request, { db, staff, ip }) => {
  const json = await readJsonBody(request);
  // A body without its idempotency key says so in its code (docs/architecture.md, "Error codes"); the field errors are the same.
  const body = parseFields(newRequestSchema, json, jsonBodyMessage, lacksClientKey(json) ? "idempotency_key_missing" : "validation_failed");
  const refusal = await doNotAskRefusal(db, body.tag, getConfig().timeZone);
  if (refusal) throw invalidField("This person asked not to be asked. Nothing was sent.", "tag", refusal);
  const outcome = await createFundRequest(requestDeps(db), body, staff);
  switch (outcome.kind) {
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
      await writeAudit(db, {
        action: "request.created",
        actor: staff,
        target: outcome.request.requestId,
        detail: { tag: outcome.request.tag, amount: outcome.request.amount },
        ip,
      });
      return ok(outcome.request, "Request sent", 201);
    case "service_failed":
      await writeAudit(db, { action: "request.created", actor: staff, target: outcome.request.reference, detail: { failed: outcome.error.kind }, ip });
      throw serviceFailure(outcome.error, outcome.request);
  }
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

import "server-only";

import { conflict, invalidField, serviceFailure } from "../api-error";
import { ok } from "../envelope";

import type { NewRequestOutcome } from "@/lib/requests/new-request";

/**
 * A new request's outcome as an answer, whichever door asked (POST /api/requests, POST /api/v1/requests): one mapping
 * of outcomes to envelopes and codes (docs/architecture.md "Error codes").
 */
export function answerNewRequest(outcome: NewRequestOutcome): Response {
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
}

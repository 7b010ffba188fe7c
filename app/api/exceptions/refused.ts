import { ExceptionRefused } from "@/lib/exceptions/refused";
import { conflict, invalidField, notFound } from "@/lib/http/api-error";

/** A refused resolve or reopen as its answer: unknown exception 404, a state or link refusal 409, no such request 422. */
export function answerRefusal(error: unknown): never {
  if (!(error instanceof ExceptionRefused)) throw error;
  switch (error.kind) {
    case "not_found":
      throw notFound(error.message);
    case "conflict":
      throw conflict(error.message);
    case "unknown_request":
      throw invalidField(error.message, "requestId", "Choose one of the suggested requests");
    case "amount_differs":
      throw invalidField(error.message, "acceptDifferentAmount", "Tick this to link a payment of another amount");
  }
}

import "server-only";

import { ServiceError } from "./errors";
import { safeErrorSummary } from "@/lib/log/safe-error";

/** A sentence for people: what failed and what to do. Unknown errors are logged, not shown. */
export function describeServiceError(error: unknown): string {
  if (error instanceof ServiceError) return error.userMessage;
  console.error(`[service] unexpected error: ${safeErrorSummary(error)}`);
  return "Something went wrong while talking to the payment service. Try again; if it keeps happening, check the server log.";
}

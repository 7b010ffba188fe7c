import "server-only";

import { ServiceError } from "./errors";

/** A sentence for people: what failed and what to do. Unknown errors are logged, not shown. */
export function describeServiceError(error: unknown): string {
  if (error instanceof ServiceError) return error.userMessage;
  console.error("[service] unexpected error", error);
  return "Something went wrong while talking to the payment service. Try again; if it keeps happening, check the server log.";
}

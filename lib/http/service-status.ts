import type { ServiceError } from "@/lib/service/errors";

/** Our answer's status when the service failed: the caller's fault (4xx) only when the service said so. */
export function statusForServiceError(error: ServiceError): number {
  switch (error.kind) {
    case "timeout":
      return 504;
    case "rate_limited":
      return 503;
    case "not_found":
    case "rejected":
      return 422;
    default:
      return 502;
  }
}

import "server-only";

export {
  createServiceClient,
  REQUEST_ID_RE,
  type CreateFundRequestInput,
  type ServiceCallRecord,
  type ServiceClient,
  type ServiceClientOptions,
} from "./client";
export {
  cleanServiceMessage,
  InvalidIdentifierError,
  isServiceError,
  ServiceError,
  type ServiceErrorInit,
  type ServiceErrorKind,
  type ServiceOperation,
} from "./errors";
export { formatIssues } from "./envelope-data";
export { parseRetryAfter } from "./retry";
export * from "./schemas";

import "server-only";
import type { z } from "zod";
import { ServiceError, type ServiceOperation } from "./errors";
import { envelopeHeadSchema } from "./schemas";

const MAX_ISSUES = 10;

/** `data.wallets.0.balance: expected number, received string` — paths and types, never values. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map((part) => String(part)).join(".") || "(root)";
    return `${path}: ${issue.message.replace(/^Invalid input: /, "")}`;
  });
  if (issues.length > MAX_ISSUES) lines.push(`… and ${issues.length - MAX_ISSUES} more`);
  return lines;
}

/** The `data` of a 2xx envelope; `status:false` is the service refusing, a wrong shape is a bad response. */
export function envelopeData<D>(
  operation: ServiceOperation,
  httpStatus: number,
  json: unknown,
  schema: z.ZodType<{ status: boolean; message: string; data: D }>,
): D {
  const head = envelopeHeadSchema.safeParse(json);
  if (head.success && head.data.status === false) {
    throw new ServiceError({ kind: "rejected", operation, httpStatus, serviceMessage: head.data.message, detail: "status:false" });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = formatIssues(parsed.error.issues);
    throw new ServiceError({
      kind: "bad_response",
      operation,
      httpStatus,
      issues,
      // A create the service accepted but answered oddly may still have happened.
      outcomeUnknown: operation === "create",
      detail: `unexpected shape: ${issues.join("; ")}`,
    });
  }
  return parsed.data.data;
}

import type { z } from "zod";

import type { ErrorCode } from "@/lib/client/http/error-codes";

import { badRequest, tooLarge, unprocessable, unsupportedMediaType } from "./api-error";
import { readCapped } from "./read-capped";

export const MAX_JSON_BYTES = 16 * 1024;

/**
 * Reads a JSON body with a size cap and validates it, answering the values; otherwise throws an
 * ApiError (withStaff answers it): 415/413/400 for the body, 422 with field errors for the values.
 */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, maxBytes = MAX_JSON_BYTES): Promise<z.output<S>> {
  return parseFields(schema, await readJsonBody(request, maxBytes), jsonBodyMessage);
}

/** The 422's message for a JSON body: the body's own reason, else a pointer to the field errors. */
export const jsonBodyMessage = (flat: FieldErrors) => flat.formErrors[0] ?? "Some fields are not valid; see fieldErrors.";

/** parseJsonBody's reading alone (415/413/400), for a route that looks at the values before it validates them. */
export async function readJsonBody(request: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw unsupportedMediaType("Send the body as JSON with Content-Type: application/json.");
  }
  // Read with the cap as it streams: a chunked body has no Content-Length to refuse up front.
  const body = await readCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(`The body is larger than ${maxBytes} bytes.`);
  try {
    return JSON.parse(body.bytes.toString("utf8")) as unknown;
  } catch {
    throw badRequest("The body is not valid JSON.");
  }
}

type FieldErrors = ReturnType<typeof fieldErrorsOf>;

/**
 * Validates values already read (a JSON body, a form's fields, a query string), answering them; otherwise throws a
 * 422 with field errors. The message defaults to the first field's reason ("to: not a day."), for a caller with no form;
 * the code to `validation_failed` (docs/architecture.md, "Error codes").
 */
export function parseFields<S extends z.ZodType>(
  schema: S,
  values: unknown,
  message: string | ((flat: FieldErrors) => string) = firstReason,
  code: ErrorCode = "validation_failed",
): z.output<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const flat = fieldErrorsOf(result.error);
  throw unprocessable(typeof message === "string" ? message : message(flat), flat, code);
}

function firstReason({ fieldErrors, formErrors }: FieldErrors): string {
  const [field, reasons] = Object.entries(fieldErrors)[0] ?? [];
  if (field && reasons?.[0]) return `${field}: ${reasons[0]}.`;
  return formErrors[0] ?? "Some values are not valid; see fieldErrors.";
}

/** Each message under its field's path, a nested one dotted (`schedule.day`, `members.add.0.tag`); the body's own in formErrors. */
export function fieldErrorsOf(error: z.ZodError): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    if (issue.path.length === 0) formErrors.push(issue.message);
    else (fieldErrors[issue.path.map(String).join(".")] ??= []).push(issue.message);
  }
  return { fieldErrors, formErrors };
}

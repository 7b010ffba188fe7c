import type { z } from "zod";

import { badRequest, tooLarge, unprocessable, unsupportedMediaType } from "./api-error";
import { readCapped } from "./read-capped";

export const MAX_JSON_BYTES = 16 * 1024;

/**
 * Reads a JSON body with a size cap and validates it, answering the values; otherwise throws an
 * ApiError (withStaff answers it): 415/413/400 for the body, 422 with field errors for the values.
 */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, maxBytes = MAX_JSON_BYTES): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw unsupportedMediaType("Send the body as JSON with Content-Type: application/json.");
  }
  // Read with the cap as it streams: a chunked body has no Content-Length to refuse up front.
  const body = await readCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(`The body is larger than ${maxBytes} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(body.bytes.toString("utf8"));
  } catch {
    throw badRequest("The body is not valid JSON.");
  }
  return parseFields(schema, json, (flat) => flat.formErrors[0] ?? "Some fields are not valid; see fieldErrors.");
}

type FieldErrors = ReturnType<typeof fieldErrorsOf>;

/**
 * Validates values already read (a JSON body, a form's fields, a query string), answering them; otherwise throws a
 * 422 with field errors. The message defaults to the first field's reason ("to: not a day."), for a caller with no form.
 */
export function parseFields<S extends z.ZodType>(schema: S, values: unknown, message: string | ((flat: FieldErrors) => string) = firstReason): z.output<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const flat = fieldErrorsOf(result.error);
  throw unprocessable(typeof message === "string" ? message : message(flat), flat);
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

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
  const result = schema.safeParse(json);
  if (!result.success) {
    const flat = fieldErrorsOf(result.error);
    const message = flat.formErrors[0] ?? "Some fields are not valid; see fieldErrors.";
    throw unprocessable(message, flat);
  }
  return result.data;
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

import type { z } from "zod";
import { flattenError } from "zod";

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
    const flat = flattenError(result.error);
    const message = flat.formErrors[0] ?? "Some fields are not valid; see fieldErrors.";
    throw unprocessable(message, { fieldErrors: flat.fieldErrors, formErrors: flat.formErrors });
  }
  return result.data;
}

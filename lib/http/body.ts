import type { z } from "zod";
import { flattenError } from "zod";

import { fail } from "./envelope";
import { readCapped } from "./read-capped";

export const MAX_JSON_BYTES = 16 * 1024;

type Parsed<T> = { ok: true; data: T } | { ok: false; response: Response };

/** Reads a JSON body with a size cap and validates it: 415/413/400 for the body, 422 with field errors for the values. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S, maxBytes = MAX_JSON_BYTES): Promise<Parsed<z.output<S>>> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, response: fail(415, "Send the body as JSON with Content-Type: application/json.") };
  }
  // Read with the cap as it streams: a chunked body has no Content-Length to refuse up front.
  const body = await readCapped(request, maxBytes);
  if (!body.ok) return { ok: false, response: fail(413, `The body is larger than ${maxBytes} bytes.`) };
  let json: unknown;
  try {
    json = JSON.parse(body.bytes.toString("utf8"));
  } catch {
    return { ok: false, response: fail(400, "The body is not valid JSON.") };
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const flat = flattenError(result.error);
    const message = flat.formErrors[0] ?? "Some fields are not valid; see fieldErrors.";
    return { ok: false, response: fail(422, message, { fieldErrors: flat.fieldErrors, formErrors: flat.formErrors }) };
  }
  return { ok: true, data: result.data };
}

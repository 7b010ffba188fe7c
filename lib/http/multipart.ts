import "server-only";

import { badRequest, tooLarge, unsupportedMediaType } from "./api-error";
import { readCapped } from "./read-capped";

/**
 * A multipart form read at most `maxBytes` far (a chunked body too) before it is parsed, so a larger one is refused
 * without being held in memory. `what` names the upload in the messages ("the campaign", "the plan").
 */
export async function readMultipart(request: Request, maxBytes: number, what: string, tooLargeMessage: string): Promise<FormData> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    throw unsupportedMediaType(`Send ${what} as multipart/form-data with a file field (the CSV) and its other fields.`);
  }
  const body = await readCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(tooLargeMessage);
  try {
    return await new Response(new Uint8Array(body.bytes), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw badRequest("The upload could not be read as a form. Choose the file again and upload it.");
  }
}

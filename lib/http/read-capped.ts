// The one capped body reader: request bodies (webhook, JSON API) and the service's responses.

export type CappedRead = { ok: true; bytes: Buffer } | { ok: false; size: number };

/**
 * Reads at most `limit` bytes of a request's or response's body; past that it stops reading and says
 * so (a request's caller answers 413). A declared Content-Length over the limit is refused unread.
 * With a `signal`, an abort stops the read even when the stream is not tied to it, and throws its reason.
 */
export async function readCapped(message: Request | Response, limit: number, signal?: AbortSignal): Promise<CappedRead> {
  const declared = Number(message.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return { ok: false, size: declared };
  if (!message.body) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = message.body.getReader();
  const onAbort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, size };
      }
      chunks.push(value);
    }
    return { ok: true, bytes: Buffer.concat(chunks) };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`response body exceeds ${limitBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * A response's body as UTF-8 text, read with readCapped. Throws BodyTooLargeError (the body is
 * cancelled), a TypeError for invalid UTF-8, or the stream's own error (abort, reset).
 */
export async function readCappedText(res: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const read = await readCapped(res, maxBytes, signal);
  if (!read.ok) {
    // Refused on its Content-Length: nothing read yet, so let the connection go.
    if (!res.bodyUsed) await res.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
}

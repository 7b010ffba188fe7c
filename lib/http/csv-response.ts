// Every CSV download's answer: a file to save, never cached (it holds customers' details).

export function csvResponse(body: string, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * A CSV download written as it is read: each chunk `chunks` yields goes out at once, so the file never sits whole in
 * memory. `done` runs once when the file ends, fails or the client goes away.
 */
export function csvStreamResponse(chunks: AsyncIterable<string>, filename: string, done: () => void = () => {}): Response {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel() {
      done();
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

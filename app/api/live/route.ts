import { withStaff } from "@/lib/auth/guard";
import { subscribeFor, type LiveEvent } from "@/lib/live/bus";
import { admitStream } from "@/lib/live/stream-limit";
import { otherMethods } from "@/lib/http/other-methods";
import { openSession } from "@/lib/auth/sessions";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

/** Server-sent events; the browser invalidates its queries on each (docs/architecture.md). */
export const GET = withStaff("events.read", async (request, { staff, db }) => {
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      // The retry hint is the browser's reconnect delay; the first comment flushes the headers.
      send("retry: 2000\n: connected\n\n");
      const unsubscribe = subscribeFor(staff.id, (event: LiveEvent) => send(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
      // Each heartbeat re-reads the session, so an ended one (or a disabled account) stops hearing events within one period.
      const heartbeat = setInterval(() => {
        openSession(db, staff.sessionId, staff.id).then(
          // A rule turned on since the stream opened counts too: without a second step, no events.
          (open) => (open && !(open.require2fa && open.staff.totpSecret === null) ? send(": ping\n\n") : cleanup()),
          () => send(": ping\n\n"),
        );
      }, HEARTBEAT_MS);
      const forget = admitStream(staff.id, () => cleanup());
      cleanup = () => {
        forget();
        unsubscribe();
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      request.signal.addEventListener("abort", () => cleanup());
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

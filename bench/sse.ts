// A server-sent-events client over fetch streaming, with the session's cookie: what a browser tab's EventSource does.
import { performance } from "node:perf_hooks";

import type { Session } from "./session";

export interface SseEvent {
  event: string;
  data: string;
  /** performance.now() when the event's last byte arrived. */
  at: number;
}

interface Waiter {
  match: (e: SseEvent) => boolean;
  resolve: (e: SseEvent) => void;
}

const RECENT = 200;

export class SseClient {
  private readonly recent: SseEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  received = 0;

  private constructor(private readonly controller: AbortController) {}

  static async open(session: Session, pathname = "/api/live"): Promise<SseClient> {
    const controller = new AbortController();
    const client = new SseClient(controller);
    const res = await session.fetch(pathname, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    if (res.status !== 200 || !res.body) throw new Error(`${pathname}: HTTP ${res.status}`);
    void client.read(res.body.getReader());
    return client;
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          this.dispatch(frame, at);
        }
      }
    } catch {
      // Aborted by close(), or the server went away.
    }
    this.closed = true;
  }

  private dispatch(frame: string, at: number): void {
    let event = "message";
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length === 0) return;
    const e: SseEvent = { event, data: data.join("\n"), at };
    this.received += 1;
    this.recent.push(e);
    if (this.recent.length > RECENT) this.recent.shift();
    for (const w of this.waiters) {
      if (w.match(e)) {
        this.waiters.delete(w);
        w.resolve(e);
      }
    }
  }

  /** The first event since `since` (performance.now()) that matches; null after `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs: number, since: number): Promise<SseEvent | null> {
    const seen = this.recent.find((e) => e.at >= since && match(e));
    if (seen) return Promise.resolve(seen);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve(null);
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  get open(): boolean {
    return !this.closed;
  }

  close(): void {
    this.controller.abort();
  }
}

/** The `request.updated` event for one request reaching a given status. */
export function requestUpdated(requestId: string, status: string) {
  return (e: SseEvent): boolean => {
    if (e.event !== "request.updated") return false;
    try {
      const d = JSON.parse(e.data) as { requestId?: unknown; status?: unknown };
      return d.requestId === requestId && d.status === status;
    } catch {
      return false;
    }
  };
}

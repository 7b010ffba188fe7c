// A server-sent-events client over fetch streaming (what a browser tab's EventSource does), e.g. on
// /api/live with a signed-in session's cookie: collects the events, waits for one, closes.
import { performance } from "node:perf_hooks";

export interface SseEvent {
  /** The event field ("message" when the frame has none). */
  event: string;
  /** The data lines, joined with "\n". */
  data: string;
  /** performance.now() when the event's last byte arrived. */
  at: number;
}

/** Anything that fetches a path with its cookies: a Session from sign-in.ts. */
export interface SseSource {
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
}

export interface SseOptions {
  /** How many of the latest events to hold (default 200); older ones are dropped, still counted. */
  keep?: number;
}

interface Waiter {
  match: (e: SseEvent) => boolean;
  resolve: (e: SseEvent) => void;
}

export class SseClient {
  private readonly recent: SseEvent[] = [];
  private readonly waiters = new Set<Waiter>();
  private closed = false;
  private reading: Promise<void> = Promise.resolve();
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** Events received so far, including those no longer held. */
  received = 0;

  private constructor(
    private readonly controller: AbortController,
    private readonly keep: number,
  ) {}

  /** Opens the stream; resolves once it answered 200 with a body (ready), fails otherwise. */
  static async open(source: SseSource, pathname = "/api/live", opts: SseOptions = {}): Promise<SseClient> {
    const controller = new AbortController();
    const client = new SseClient(controller, opts.keep ?? 200);
    const res = await source.fetch(pathname, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    if (res.status !== 200 || !res.body) {
      controller.abort();
      throw new Error(`${pathname}: HTTP ${res.status}`);
    }
    client.reader = res.body.getReader();
    client.reading = client.read(client.reader);
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
    if (this.recent.length > this.keep) this.recent.shift();
    for (const w of this.waiters) {
      if (w.match(e)) {
        this.waiters.delete(w);
        w.resolve(e);
      }
    }
  }

  /** The events held (the latest `keep`), oldest first. */
  get events(): readonly SseEvent[] {
    return this.recent;
  }

  /** The first event at or after `since` (performance.now()) that matches; null after `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs: number, since = 0): Promise<SseEvent | null> {
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

  /** Resolves true once the stream has ended (the server closed it, or close() did), false after `timeoutMs`. */
  ended(timeoutMs: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      void this.reading.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Ends the stream; resolves once reading stopped, or after 5 s: the reader is cancelled as well as the request
   * aborted, so a stream that an abort did not end cannot hold a run (a bench smoke run once hung for 15 minutes
   * with every connection gone, most likely here; bench/README.md).
   */
  async close(): Promise<void> {
    this.controller.abort();
    this.reader?.cancel().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.reading, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
    clearTimeout(timer);
    this.closed = true;
  }
}

/** Matches an event of one type whose JSON data has the given field values. */
export function eventWith(type: string, fields: Record<string, unknown>) {
  return (e: SseEvent): boolean => {
    if (e.event !== type) return false;
    try {
      const data = JSON.parse(e.data) as Record<string, unknown>;
      return Object.entries(fields).every(([key, value]) => data[key] === value);
    } catch {
      return false;
    }
  };
}

/** The `request.updated` event for one request reaching a given status. */
export function requestUpdated(requestId: string, status: string) {
  return eventWith("request.updated", { requestId, status });
}

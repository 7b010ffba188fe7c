// The sandbox's webhook receiver (docs/architecture.md "Outgoing webhooks: the primitives"): an endpoint the
// dashboard's outgoing webhooks can be pointed at in sandbox mode, e.g. http://127.0.0.1:4010/sandbox/hooks/erp.
// It keeps what it receives, in memory only, and answers 200, or the status `?status=` names so that retries and
// disabling can be watched.
import type { IncomingMessage } from "node:http";

import { HttpError, jsonReply, ok, readBody, type Reply } from "./http-util";
import { route, type Route } from "./router";

/** Larger bodies are refused with 413 (outgoing deliveries are at most 64 KiB). */
export const HOOK_BODY_LIMIT_BYTES = 256 * 1024;
/** Deliveries kept for one name, and for all names together; the oldest go first past these. */
export const HOOKS_PER_NAME = 1_000;
export const HOOKS_IN_ALL = 10_000;

const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** One delivery as received: the wire shape of `GET /sandbox/hooks/:name`. */
export interface ReceivedHook {
  id: string;
  name: string;
  method: string;
  /** Every request header, names in lower case (repeated ones joined as node joins them). */
  headers: Record<string, string>;
  /** The body exactly as received, as UTF-8. */
  body: string;
  /** The status the receiver answered. */
  status: number;
  /** When it arrived: ISO 8601 UTC with milliseconds. */
  at: string;
}

export class HookInbox {
  /** Per name, oldest first. */
  private readonly byName = new Map<string, ReceivedHook[]>();
  /** Every kept delivery in arrival order, for the cap over all names; entries already dropped are skipped. */
  private order: ReceivedHook[] = [];
  private readonly kept = new Set<ReceivedHook>();
  private lastId = 0;

  constructor(
    private readonly perName = HOOKS_PER_NAME,
    private readonly inAll = HOOKS_IN_ALL,
  ) {}

  record(entry: Omit<ReceivedHook, "id">): ReceivedHook {
    const hook = { id: String(++this.lastId), ...entry };
    const list = this.byName.get(hook.name) ?? [];
    this.byName.set(hook.name, list);
    list.push(hook);
    this.order.push(hook);
    this.kept.add(hook);
    if (list.length > this.perName) this.kept.delete(list.shift()!);
    while (this.kept.size > this.inAll) {
      const oldest = this.order.shift();
      if (!oldest || !this.kept.delete(oldest)) continue;
      const ofName = this.byName.get(oldest.name);
      ofName?.shift();
      if (ofName?.length === 0) this.byName.delete(oldest.name);
    }
    // Keep the arrival list from growing with entries the per-name cap or a DELETE already dropped.
    if (this.order.length > 2 * this.inAll) this.order = this.order.filter((h) => this.kept.has(h));
    return hook;
  }

  /** Newest first. */
  list(name: string): ReceivedHook[] {
    return [...(this.byName.get(name) ?? [])].reverse();
  }

  clear(name: string): number {
    const list = this.byName.get(name) ?? [];
    for (const hook of list) this.kept.delete(hook);
    this.byName.delete(name);
    return list.length;
  }

  get size(): number {
    return this.kept.size;
  }
}

function hookName(raw: string | undefined): string {
  const name = raw ?? "";
  if (!NAME_PATTERN.test(name)) throw new HttpError(400, "A receiver name is 1-64 letters, digits, '.', '_' or '-'");
  return name;
}

/** `?status=` as a number from 200 to 599; 200 when absent. */
function answerStatus(query: URLSearchParams): number {
  const raw = query.get("status");
  if (raw === null || raw === "") return 200;
  const status = Number(raw);
  if (!/^\d{3}$/.test(raw) || status < 200 || status > 599) throw new HttpError(400, "status must be a whole number from 200 to 599");
  return status;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

export function hookRoutes(inbox: HookInbox): Route[] {
  return [
    route("POST", "/sandbox/hooks/:name", async ({ req, params, query }): Promise<Reply> => {
      const name = hookName(params.name);
      const status = answerStatus(query);
      const body = await readBody(req, HOOK_BODY_LIMIT_BYTES);
      inbox.record({ name, method: req.method ?? "POST", headers: flatHeaders(req), body, status, at: new Date().toISOString() });
      // 204 and 304 carry no body.
      if (status === 204 || status === 304) return { status, body: "", contentType: "text/plain; charset=utf-8" };
      return jsonReply(status, { ok: status < 300 });
    }),
    route("GET", "/sandbox/hooks/:name", ({ params }) => jsonReply(200, inbox.list(hookName(params.name)))),
    route("DELETE", "/sandbox/hooks/:name", ({ params }) => {
      const name = hookName(params.name);
      const removed = inbox.clear(name);
      return ok(`Emptied receiver ${name}`, { removed });
    }),
  ];
}

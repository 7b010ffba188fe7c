// Envelope replies, bounded body reading and JSON parsing shared by every sandbox route.
import type { IncomingMessage, ServerResponse } from "node:http";

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface Reply {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

/** Thrown by handlers; becomes an error envelope with this status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), contentType: "application/json; charset=utf-8", headers };
}

export function ok(message: string, data: object): Reply {
  return jsonReply(200, { status: true, message, data });
}

export function fail(status: number, message: string, headers?: Record<string, string>): Reply {
  return jsonReply(status, { status: false, message, data: {} }, headers);
}

export function html(body: string): Reply {
  return { status: 200, body, contentType: "text/html; charset=utf-8" };
}

export function redirect(location: string): Reply {
  return { status: 303, body: "", contentType: "text/plain; charset=utf-8", headers: { location } };
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, {
    "content-type": reply.contentType,
    "content-length": String(Buffer.byteLength(reply.body)),
    "cache-control": "no-store",
    ...reply.headers,
  });
  res.end(reply.body);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body exceeds ${limit} bytes`, { connection: "close" });
}

/** The body as text, refused with a 413 past `limit` bytes (the service interface's limit unless a route says). */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<string> {
  if (Number(req.headers["content-length"] ?? 0) > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflowed = false;
    req.on("data", (chunk: Buffer) => {
      if (overflowed) return;
      size += chunk.length;
      if (size > limit) {
        overflowed = true;
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!overflowed) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Reads and parses a JSON body; `strictType` demands the Content-Type the interface requires. */
export async function readJson(req: IncomingMessage, strictType: boolean): Promise<unknown> {
  if (strictType && mediaType(req) !== "application/json") {
    throw new HttpError(400, "Content-Type must be application/json");
  }
  const text = await readBody(req);
  if (text.trim() === "") throw new HttpError(400, "Request body is empty; expected a JSON object");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

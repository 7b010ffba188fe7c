// The browser's only way to the server: our own route handlers, errors carried as the envelope's message and code.

import { isErrorCode, type ErrorCode } from "./error-codes";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: Record<string, string[] | undefined> = {},
    readonly data: unknown = null,
    /** The envelope's code (docs/architecture.md, "Error codes"); null when the answer had none (no server reached, not our envelope). */
    readonly code: ErrorCode | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface EnvelopeLike {
  status?: unknown;
  message?: unknown;
  code?: unknown;
  data?: unknown;
}

export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  return (await apiFetchWithMessage<T>(path, init)).data;
}

/** apiFetch, keeping the envelope's message too (for a change whose answer says what happened, like "2 sessions were signed out"). */
export async function apiFetchWithMessage<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ data: T; message: string }> {
  const { json, headers, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, {
      ...rest,
      headers: { Accept: "application/json", ...(json !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch {
    throw new ApiError("The dashboard server could not be reached. Check your connection and try again.", 0);
  }
  let body: EnvelopeLike | null = null;
  try {
    body = (await response.json()) as EnvelopeLike;
  } catch {
    body = null;
  }
  if (!response.ok || !body || body.status !== true) {
    const message = typeof body?.message === "string" ? body.message : `The server answered ${response.status}. Try again.`;
    const data = body?.data as { fieldErrors?: Record<string, string[] | undefined> } | undefined;
    throw new ApiError(message, response.status, data?.fieldErrors ?? {}, body?.data ?? null, isErrorCode(body?.code) ? body.code : null);
  }
  return { data: body.data as T, message: typeof body.message === "string" ? body.message : "" };
}

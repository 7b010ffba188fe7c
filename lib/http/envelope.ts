import { NextResponse } from "next/server";

import { errorCodeForStatus, type ErrorCode } from "@/lib/client/http/error-codes";

/** The service's envelope, used by every route of ours too (docs/architecture.md). */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/** An error answer's envelope: `code` from the closed list (docs/architecture.md, "Error codes"). */
export interface ErrorEnvelope<T> extends Envelope<T> {
  status: false;
  code: ErrorCode;
}

export function ok<T>(data: T, message = "OK", status = 200, headers?: HeadersInit): NextResponse<Envelope<T>> {
  return NextResponse.json({ status: true, message, data }, { status, headers });
}

/** An error answer: `code` defaults to the status's (lib/client/http/error-codes.ts); pass a more precise one when there is one. */
export function fail<T extends object = Record<string, never>>(
  status: number,
  message: string,
  data?: T,
  headers?: HeadersInit,
  code: ErrorCode = errorCodeForStatus(status),
): NextResponse<ErrorEnvelope<T>> {
  return NextResponse.json(
    { status: false as const, message, code, data: (data ?? {}) as T },
    { status, headers: { "Cache-Control": "no-store", ...headers } },
  );
}

import { NextResponse } from "next/server";

/** The service's envelope, used by every route of ours too (docs/architecture.md). */
export interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

export function ok<T>(data: T, message = "OK", status = 200, headers?: HeadersInit): NextResponse<Envelope<T>> {
  return NextResponse.json({ status: true, message, data }, { status, headers });
}

export function fail<T extends object = Record<string, never>>(status: number, message: string, data?: T, headers?: HeadersInit): NextResponse<Envelope<T>> {
  return NextResponse.json({ status: false, message, data: (data ?? {}) as T }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

// The benchmarks' view of a signed-in staff member: the shared sign-in session (tests/support/sign-in.ts),
// with `json` answering the envelope's data and message, which is what the benchmarks read.
import { performance } from "node:perf_hooks";

import { signIn as signInOverHttp, type Session as HttpSession } from "@/tests/support/sign-in";

export interface Session extends Omit<HttpSession, "json"> {
  readonly baseUrl: string;
  /** JSON in, the envelope's status and data out. */
  json<T>(pathname: string, init?: RequestInit & { body?: string }): Promise<{ status: number; data: T; message: string }>;
}

/** Signs in over HTTP from `clientIp` (X-Forwarded-For); fails unless it worked. */
export async function signIn(baseUrl: string, email: string, password: string, clientIp: string): Promise<Session> {
  const session = await signInOverHttp(baseUrl, email, password, { address: clientIp });
  return {
    ...session,
    baseUrl: session.url,
    async json<T>(pathname: string, init: RequestInit & { body?: string } = {}) {
      const headers = new Headers(init.headers);
      if (init.body !== undefined) headers.set("content-type", "application/json");
      const res = await session.fetch(pathname, { ...init, headers });
      const text = await res.text();
      let parsed: { data?: T; message?: string } = {};
      try {
        parsed = JSON.parse(text) as { data?: T; message?: string };
      } catch {
        // Not JSON: the caller sees the status.
      }
      return { status: res.status, data: parsed.data as T, message: parsed.message ?? text.slice(0, 200) };
    },
  };
}

/** One signed-in GET, read whole: its milliseconds (a non-200 answer throws, naming the path). */
export async function timeGet(session: Session, path: string): Promise<number> {
  const t0 = performance.now();
  const res = await session.fetch(path);
  await res.text();
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  return performance.now() - t0;
}

// A signed-in staff member over plain HTTP: a small cookie jar, sign-in as the sign-in form's endpoint does.
export class Session {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    /** Sent as X-Forwarded-For: distinct per person, so the per-address sign-in limit stays out of the way. */
    readonly clientIp: string,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  hasCookie(match: RegExp): boolean {
    return [...this.cookies.keys()].some((name) => match.test(name));
  }

  async fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("x-forwarded-for", this.clientIp);
    if (this.cookies.size) headers.set("cookie", this.cookieHeader());
    if (init.method && init.method !== "GET") headers.set("origin", this.baseUrl);
    const res = await fetch(new URL(pathname, this.baseUrl), { redirect: "manual", ...init, headers });
    for (const line of res.headers.getSetCookie()) this.store(line);
    return res;
  }

  /** JSON in, the envelope's status and data out. */
  async json<T>(pathname: string, init: RequestInit & { body?: string } = {}): Promise<{ status: number; data: T; message: string }> {
    const headers = new Headers(init.headers);
    if (init.body !== undefined) headers.set("content-type", "application/json");
    const res = await this.fetch(pathname, { ...init, headers });
    const text = await res.text();
    let parsed: { data?: T; message?: string } = {};
    try {
      parsed = JSON.parse(text) as { data?: T; message?: string };
    } catch {
      // Not JSON: the caller sees the status.
    }
    return { status: res.status, data: parsed.data as T, message: parsed.message ?? text.slice(0, 200) };
  }

  private store(line: string): void {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a) || /^\s*expires\s*=.*1970/i.test(a));
    if (value === "" || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Credentials sign-in: csrf token, then the callback; a success redirects without `error=` and sets the session cookie. */
export async function signIn(baseUrl: string, email: string, password: string, clientIp: string): Promise<Session> {
  const session = new Session(baseUrl, clientIp);
  const res = await session.fetch("/api/auth/csrf");
  const { csrfToken } = (await res.json()) as { csrfToken?: string };
  if (!csrfToken) throw new Error(`sign-in of ${email}: no csrf token (HTTP ${res.status})`);
  const form = new URLSearchParams({ email, password, csrfToken, callbackUrl: "/" });
  const callback = await session.fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  await callback.arrayBuffer();
  const location = callback.headers.get("location") ?? "";
  if (callback.status !== 302 || location.includes("error=") || !session.hasCookie(/session-token/)) {
    throw new Error(`sign-in of ${email} failed: HTTP ${callback.status}, location ${location || "none"}`);
  }
  return session;
}

let ipCounter = 0;
/** A distinct documentation-range address per session. */
export function nextClientIp(): string {
  ipCounter += 1;
  return `198.51.${100 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

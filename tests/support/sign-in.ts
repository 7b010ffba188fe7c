// Signing in over HTTP the way the sign-in form does: GET the CSRF token, POST the credentials callback
// (redirect not followed), keep the cookies. The steps are written once (signInWith); trySignIn/signIn
// run them over fetch with a cookie jar, e2e runs them over Playwright's request context.
import { CookieJar } from "./cookie-jar";

export const CSRF_PATH = "/api/auth/csrf";
export const CREDENTIALS_PATH = "/api/auth/callback/credentials";

// A random start, so a restarted test process does not reuse the addresses of the one before it.
let addressCounter = Math.floor(Math.random() * 50_000);

/**
 * A distinct pretend client address (198.18.0.0/15, the benchmarking range) per call: sent as
 * X-Forwarded-For, it keeps one sign-in clear of another's per-address throttle.
 */
export function fakeAddress(): string {
  addressCounter = (addressCounter + 1) % 62_500;
  return `198.18.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** An HTTP client able to run the two sign-in steps; R is its answer to the credentials POST. */
export interface SignInClient<R> {
  /** GET path, parsed as JSON. */
  getJson(path: string): Promise<unknown>;
  /** POST path as application/x-www-form-urlencoded, redirects not followed. */
  postForm(path: string, form: Record<string, string>): Promise<R>;
}

/** The csrf token in an answer of CSRF_PATH; fails naming `what` when there is none. */
export function csrfTokenOf(answer: unknown, what: string): string {
  const csrfToken = typeof answer === "object" && answer !== null ? (answer as { csrfToken?: unknown }).csrfToken : undefined;
  if (typeof csrfToken !== "string" || csrfToken === "") throw new Error(`${what}: no csrf token from ${CSRF_PATH}`);
  return csrfToken;
}

/**
 * The two steps of the sign-in form; returns the client's answer to the credentials callback. `code` is
 * the second step (an authenticator code or a recovery code) for an account with two-step sign-in.
 */
export async function signInWith<R>(client: SignInClient<R>, email: string, password: string, code?: string): Promise<R> {
  const csrfToken = csrfTokenOf(await client.getJson(CSRF_PATH), `sign-in of ${email}`);
  return client.postForm(CREDENTIALS_PATH, { email, password, ...(code === undefined ? {} : { code }), csrfToken, callbackUrl: "/" });
}

/** A success redirects (302) somewhere without `error=`. */
export function signInRedirectOk(status: number, location: string): boolean {
  return status === 302 && !location.includes("error=");
}

/** A cookie-keeping HTTP client of one dashboard, from one pretend client address. */
export interface Session {
  /** The dashboard's base URL, e.g. http://localhost:3000. */
  readonly url: string;
  /** Sent as X-Forwarded-For on every request. */
  readonly address: string;
  /** The Cookie header it sends. */
  cookie(): string;
  hasCookie(match: RegExp): boolean;
  /**
   * fetch against the dashboard (a path, or a full URL) with the cookies, the address, and Origin on
   * anything but GET/HEAD (unless given); redirects are not followed unless init says so.
   */
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  /** fetch, with the answer parsed as JSON (fails with the start of the body when it is not JSON). */
  json<T>(pathOrUrl: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
}

/** A session with no cookies yet (signed out). */
export function openSession(url: string, address: string = fakeAddress()): Session {
  const jar = new CookieJar();
  const doFetch = async (pathOrUrl: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("cookie") && jar.size > 0) headers.set("cookie", jar.header());
    headers.set("x-forwarded-for", address);
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", url);
    const res = await answered(`${method} ${pathOrUrl}`, (signal) =>
      fetch(/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${url}${pathOrUrl}`, { redirect: "manual", signal, ...init, headers }),
    );
    jar.keep(res);
    return res;
  };
  return {
    url,
    address,
    cookie: () => jar.header(),
    hasCookie: (match) => jar.has(match),
    fetch: doFetch,
    async json<T>(pathOrUrl: string, init?: RequestInit) {
      const res = await doFetch(pathOrUrl, init);
      const text = await answered(`${init?.method ?? "GET"} ${pathOrUrl}`, () => res.text());
      let body: T;
      try {
        body = JSON.parse(text) as T;
      } catch {
        throw new Error(`${init?.method ?? "GET"} ${pathOrUrl} answered ${res.status} with a body that is not JSON: ${text.slice(0, 300)}`);
      }
      return { status: res.status, body, headers: res.headers };
    },
  };
}

export interface SignInOptions {
  /** The pretend client address (X-Forwarded-For); a fresh fakeAddress() when not given. */
  address?: string;
  /** The second step: a code from the authenticator app, or a recovery code. */
  code?: string;
}

export interface SignInResult {
  /** Redirected without error= and holding a session cookie. */
  ok: boolean;
  status: number;
  /** The redirect target ("" if none): ?error=…&code=… on a refusal. */
  location: string;
  /** The session, signed in when ok. */
  session: Session;
}

/**
 * How long one request of a session may take (unless the caller gives its own signal, as a stream's reader does)
 * before it fails naming its method and path: a busy CI machine answers within seconds, and a server that never
 * answers would otherwise hold a test's setup until the runner's hook timeout, saying nothing of which request.
 */
const REQUEST_MS = 90_000;
const requestBound = AbortSignal.timeout.bind(AbortSignal, REQUEST_MS);

/** Runs `request` with the bound's signal; a timeout fails naming `what`. */
async function answered<T>(what: string, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await request(requestBound());
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") throw new Error(`${what} did not answer within ${REQUEST_MS / 1000} s`);
    throw error;
  }
}

/** Signs in over fetch and reports how it went, without failing on a refusal. */
export async function trySignIn(url: string, email: string, password: string, opts: SignInOptions = {}): Promise<SignInResult> {
  const session = openSession(url, opts.address);
  const res = await signInWith(
    {
      getJson: async (path) => (await session.json<unknown>(path)).body,
      postForm: (path, form) =>
        session.fetch(path, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form).toString(),
        }),
    },
    email,
    password,
    opts.code,
  );
  await res.arrayBuffer();
  const location = res.headers.get("location") ?? "";
  const ok = signInRedirectOk(res.status, location) && session.hasCookie(/session-token/);
  return { ok, status: res.status, location, session };
}

/** Signs in over fetch; fails (naming the e-mail, status and redirect) unless it worked. */
export async function signIn(url: string, email: string, password: string, opts: SignInOptions = {}): Promise<Session> {
  const result = await trySignIn(url, email, password, opts);
  if (!result.ok) throw new Error(`sign-in of ${email} at ${url} failed: HTTP ${result.status}, location ${result.location || "none"}`);
  return result.session;
}

export const SIGN_OUT_PATH = "/api/auth/signout";

/**
 * Signs out the way the sign-out button's endpoint does: POST SIGN_OUT_PATH with the csrf token (redirect
 * not followed); the session's jar drops the cookie it clears. Returns the answer (302 on success).
 */
export async function signOut(session: Session): Promise<Response> {
  const csrfToken = csrfTokenOf(await (await session.fetch(CSRF_PATH)).json(), `sign-out at ${session.url}`);
  const res = await session.fetch(SIGN_OUT_PATH, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in" }).toString(),
  });
  await res.arrayBuffer();
  return res;
}

/**
 * The first sign-in of an account an admin created: the person replaces the admin's password with their own
 * (until then only their account routes open). Answers the new password, which later sign-ins use.
 */
export async function chooseOwnPassword(url: string, email: string, given: string): Promise<string> {
  const own = `${given}-own`;
  const session = await signIn(url, email, given);
  const res = await session.fetch("/api/me/password", {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ currentPassword: given, newPassword: own }),
  });
  if (res.status !== 200) throw new Error(`${email} could not choose a password: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer().catch(() => undefined);
  // Signed out again, so the tests see only the sessions they open themselves.
  await signOut(session);
  return own;
}

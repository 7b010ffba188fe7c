// A small cookie jar for plain fetch: keeps what Set-Cookie sets, forgets what it expires.

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Keeps the cookies a response sets (and drops the ones it clears). */
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) this.store(line);
  }

  /** One Set-Cookie line: an empty value, Max-Age=0 or an expiry in 1970 removes the cookie. */
  store(line: string): void {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a) || /^\s*expires\s*=.*1970/i.test(a));
    if (value === "" || expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  /** The Cookie request header ("" when empty). */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Whether a cookie whose name matches is held. */
  has(match: RegExp): boolean {
    return [...this.cookies.keys()].some((name) => match.test(name));
  }

  get size(): number {
    return this.cookies.size;
  }
}

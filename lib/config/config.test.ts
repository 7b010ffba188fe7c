import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { DEV_API_KEY } from "@/lib/config/dev-key";

import { ConfigError, parseConfig, resolveAuthSecret } from "./index";

const REAL = {
  SERVICE_BASE_URL: "https://api.example.test/",
  SERVICE_VERIFY_BASE_URL: "https://verify.example.test",
  SERVICE_API_KEY: "sk_live_abcdefghijkl",
  AUTH_SECRET: "x".repeat(40),
  APP_URL: "https://dash.example.test",
};

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfig", () => {
  it("defaults to sandbox mode with the development key and local ports", () => {
    const c = parseConfig({});
    expect(c.sandbox).toBe(true);
    expect(c.service).toEqual({
      baseUrl: "http://127.0.0.1:4010",
      verifyBaseUrl: "http://127.0.0.1:4011",
      apiKey: DEV_API_KEY,
      amountUnit: "major",
    });
    expect(c.appUrl).toBe("http://localhost:3000");
    expect(c.webhookUrl).toBe("http://localhost:3000/api/webhooks/peer-transfer");
    expect(c.database).toEqual({ kind: "pglite", dataDir: path.resolve("./data") });
  });

  it("counts days in Africa/Lagos unless TIMEZONE names another zone, and names the variable when it is not one", () => {
    expect(parseConfig({}).timeZone).toBe("Africa/Lagos");
    expect(parseConfig({ TIMEZONE: "Europe/London" }).timeZone).toBe("Europe/London");
    expect(problems({ TIMEZONE: "Lagos" }).join("\n")).toMatch(/TIMEZONE.*IANA time zone name/);
  });

  it("calls a webhook lost 15 minutes after an acceptance unless LOST_WEBHOOK_MINUTES says, and names the variable when it is not minutes", () => {
    expect(parseConfig({}).lostWebhookMinutes).toBe(15);
    expect(parseConfig({ LOST_WEBHOOK_MINUTES: "30" }).lostWebhookMinutes).toBe(30);
    expect(problems({ LOST_WEBHOOK_MINUTES: "0" }).join("\n")).toMatch(/LOST_WEBHOOK_MINUTES.*between 1 and 1440/);
    expect(problems({ LOST_WEBHOOK_MINUTES: "soon" }).join("\n")).toMatch(/LOST_WEBHOOK_MINUTES.*number of minutes/);
  });

  it("works the jobs in the dashboard unless WORKERS=0, which needs Postgres, and names the variable for any other value", () => {
    const pg = { DATABASE_URL: "postgres://u:p@db.example.test/fundboard" };
    expect(parseConfig({}).workers).toBe(true);
    expect(parseConfig({ ...pg, WORKERS: "1" }).workers).toBe(true);
    expect(parseConfig({ ...pg, WORKERS: "0" }).workers).toBe(false);
    // Empty is unset, as for every variable.
    expect(parseConfig({ ...pg, WORKERS: "" }).workers).toBe(true);
    for (const value of ["2", "yes", "false", " 0"])
      expect(problems({ ...pg, WORKERS: value }).join("\n")).toMatch(/^WORKERS must be "1" .* or "0" \(web only/);
    // On the embedded database no other process could work the jobs.
    expect(problems({ WORKERS: "0" })).toEqual([expect.stringMatching(/^WORKERS=0 needs DATABASE_URL: the embedded database opens in one process only/)]);
  });

  it("follows PORT and SANDBOX_PORT", () => {
    const c = parseConfig({ PORT: "3100", SANDBOX_PORT: "5000" });
    expect(c.appUrl).toBe("http://localhost:3100");
    expect(c.service.verifyBaseUrl).toBe("http://127.0.0.1:5001");
  });

  it("uses a real service when SERVICE_BASE_URL is set, trimming the trailing slash", () => {
    const c = parseConfig(REAL);
    expect(c.sandbox).toBe(false);
    expect(c.service.baseUrl).toBe("https://api.example.test");
    expect(c.webhookUrl).toBe("https://dash.example.test/api/webhooks/peer-transfer");
  });

  it("trims whitespace around keys with a warning", () => {
    const c = parseConfig({ ...REAL, SERVICE_API_KEY: " sk_live_abcdefghijkl\n" });
    expect(c.service.apiKey).toBe("sk_live_abcdefghijkl");
    expect(c.warnings.join(" ")).toMatch(/SERVICE_API_KEY.*trimmed/);
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ SERVICE_AMOUNT_UNIT: "cents" }, "SERVICE_AMOUNT_UNIT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SERVICE_BASE_URL: "not a url" }, "SERVICE_BASE_URL"],
    [{ ADMIN_EMAIL: "a@example.com" }, "ADMIN_PASSWORD"],
    [{ ADMIN_EMAIL: "nope", ADMIN_PASSWORD: "long enough pw" }, "ADMIN_EMAIL"],
    [{ AUTH_SECRET: "short" }, "AUTH_SECRET"],
  ])("names the bad variable in %j", (env, name) => {
    expect(problems(env).join("\n")).toContain(name);
  });

  it("requires key, verify host and AUTH_SECRET with a real service, and refuses the sandbox key", () => {
    const p = problems({ SERVICE_BASE_URL: "https://api.example.test" }).join("\n");
    expect(p).toContain("SERVICE_API_KEY");
    expect(p).toContain("SERVICE_VERIFY_BASE_URL");
    expect(p).toContain("AUTH_SECRET");
    expect(problems({ ...REAL, SERVICE_API_KEY: DEV_API_KEY }).join("\n")).toContain("sandbox development key");
  });

  it("requires APP_URL in production with a real service", () => {
    const { APP_URL: _unused, ...rest } = REAL;
    expect(problems({ ...rest, NODE_ENV: "production" }).join("\n")).toContain("APP_URL");
  });

  it("binds to loopback in sandbox mode (its demo password is public) and to every interface with a real service, unless HOST says", () => {
    expect(parseConfig({}).host).toBe("127.0.0.1");
    expect(parseConfig(REAL).host).toBe("0.0.0.0");
    expect(parseConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(parseConfig({ ...REAL, HOST: "10.1.2.3" }).host).toBe("10.1.2.3");
    expect(problems({ HOST: "a b" }).join("\n")).toMatch(/^HOST .*address or host name/m);
  });

  it("sends e-mail to the sandbox's mail sink on SANDBOX_PORT+2 in sandbox mode unless SMTP_URL says otherwise", () => {
    expect(parseConfig({}).mail).toEqual({ url: "smtp://127.0.0.1:4012", from: "Fundboard <fundboard@localhost>" });
    expect(parseConfig({ SANDBOX_PORT: "5000" }).mail.url).toBe("smtp://127.0.0.1:5002");
    expect(parseConfig({ SMTP_URL: "smtp://mail.example.test:2525" }).mail.url).toBe("smtp://mail.example.test:2525");
    expect(parseConfig({}).warnings).toEqual([]);
    // The sink takes the port after the verify host's, so the last usable SANDBOX_PORT moves down by one.
    expect(problems({ SANDBOX_PORT: "65534" }).join("\n")).toMatch(/^SANDBOX_PORT must be at most 65533/);
  });

  it("turns e-mail off with a warning in live mode without SMTP_URL, and uses SMTP_URL when set", () => {
    const off = parseConfig(REAL);
    expect(off.mail.url).toBeNull();
    expect(off.warnings).toEqual([expect.stringMatching(/^e-mail is off: SMTP_URL is unset, so notifications stay in the dashboard/)]);
    const on = parseConfig({ ...REAL, SMTP_URL: "smtps://user:p%40ss@mail.example.test:465", MAIL_FROM: '"Acme, Ltd." <billing@acme.test>' });
    expect(on.mail).toEqual({ url: "smtps://user:p%40ss@mail.example.test:465", from: '"Acme, Ltd." <billing@acme.test>' });
    expect(on.warnings).toEqual([]);
    const trimmed = parseConfig({ ...REAL, SMTP_URL: " smtp://mail.example.test:587\n" });
    expect(trimmed.mail.url).toBe("smtp://mail.example.test:587");
    expect(trimmed.warnings.join(" ")).toMatch(/SMTP_URL.*trimmed/);
  });

  it("names SMTP_URL when it is not an smtp(s) URL, without repeating its credentials", () => {
    for (const value of ["http://mail.example.test", "mail.example.test:587", "smtp://", "smtp://user:s3cret-pass@"]) {
      const said = problems({ SMTP_URL: value }).join("\n");
      expect(said).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(said).not.toContain("s3cret-pass");
    }
  });

  it("takes MAIL_FROM as one address, with or without a display name, and names it otherwise", () => {
    for (const value of ["billing@acme.test", "Acme Billing <billing@acme.test>", '"Acme, Ltd." <billing@acme.test>', "<billing@acme.test>"])
      expect(parseConfig({ MAIL_FROM: value }).mail.from).toBe(value);
    for (const value of [
      "billing",
      "a@acme.test, b@acme.test",
      "Acme, Ltd. <billing@acme.test>",
      "Acme <billing@acme.test>\r\nBcc: x@evil.test",
      "Acme <billing@acme.test",
    ])
      expect(problems({ MAIL_FROM: value }).join("\n")).toMatch(/^MAIL_FROM must be an address/);
  });

  it("reads DATABASE_URL as Postgres", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://u:p@localhost/db" }).database).toEqual({ kind: "postgres", url: "postgres://u:p@localhost/db" });
  });
});

describe("resolveAuthSecret", () => {
  it("generates one secret into DATA_DIR in sandbox mode and reuses it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fundboard-cfg-"));
    try {
      const c = parseConfig({ DATA_DIR: path.join(dir, "nested") });
      const first = resolveAuthSecret(c);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveAuthSecret(c)).toBe(first);
      expect(readFileSync(path.join(dir, "nested", "auth-secret"), "utf8").trim()).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses AUTH_SECRET when given", () => {
    expect(resolveAuthSecret(parseConfig(REAL))).toBe(REAL.AUTH_SECRET);
  });
});

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

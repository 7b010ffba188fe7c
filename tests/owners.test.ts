// The ownership tables of docs/architecture.md ("Owners") hold: every module that writes a table or announces a
// live event is listed there, and fund_requests.status has one writer. A new writer fails here until it is listed.
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/paths";
import { sourceFiles } from "@/tests/support/source-files";

const TABLES: Record<string, string> = {
  staff: "staff",
  fundRequests: "fund_requests",
  payments: "payments",
  webhookDeliveries: "webhook_deliveries",
  auditLog: "audit_log",
  signInAttempts: "sign_in_attempts",
  appMeta: "app_meta",
  serviceCalls: "service_calls",
  balanceCache: "balance_cache",
  campaigns: "campaigns",
  campaignRows: "campaign_rows",
  recoveryCodes: "recovery_codes",
  staffSessions: "staff_sessions",
  settings: "settings",
  paymentHourTotals: "payment_hour_totals",
  payerStats: "payer_stats",
  doNotAsk: "do_not_ask",
  plans: "plans",
  planMembers: "plan_members",
  planPeriods: "plan_periods",
  balanceReadings: "balance_readings",
  exceptions: "exceptions",
  events: "events",
  notifications: "notifications",
  notificationPreferences: "notification_preferences",
  notificationDigests: "notification_digests",
  webhookEndpoints: "webhook_endpoints",
  outboundDeliveries: "outbound_deliveries",
  apiKeys: "api_keys",
  apiIdempotency: "api_idempotency",
  apiRateWindows: "api_rate_windows",
  apiAddressWindows: "api_address_windows",
  payPages: "pay_pages",
  payPageSubmissions: "pay_page_submissions",
  payChallengesUsed: "pay_challenges_used",
};

const sources = sourceFiles;

const FILES = [...sources("lib"), ...sources("app"), "auth.ts"].map((f) => ({ file: f, text: readFileSync(path.join(ROOT, f), "utf8") }));

/** The owners table of docs/architecture.md whose first column is headed `heading`: first-column name → listed files. */
function ownersTable(heading: string): Map<string, string[]> {
  const doc = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
  const lines = doc.split("\n");
  const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${heading}\\s*\\|`).test(l));
  if (start < 0) throw new Error(`docs/architecture.md has no owners table headed "${heading}"`);
  const table = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [name = "", owners = ""] = line
      .split("|")
      .slice(1)
      .map((c) => c.trim());
    table.set(
      name.replace(/`/g, ""),
      [...owners.matchAll(/`([^`]+\.tsx?)`/g)].map((m) => m[1] ?? ""),
    );
  }
  return table;
}

describe("owners", () => {
  it("every module writing a table is listed as its writer", () => {
    const owners = ownersTable("table");
    expect(owners.size).toBe(Object.keys(TABLES).length);
    const unlisted: string[] = [];
    for (const [variable, table] of Object.entries(TABLES)) {
      // Drizzle's builders, SQL naming the table, and SQL interpolating its schema object (`delete from ${webhookDeliveries}`).
      const writes = new RegExp(
        `\\.(insert|update|delete)\\(${variable}\\)|\\b(insert into|update|delete from) ${table}\\b|\\b(insert into|update|delete from) \\$\\{${variable}\\}`,
      );
      for (const { file, text } of FILES) if (writes.test(text) && !(owners.get(table) ?? []).includes(file)) unlisted.push(`${file} writes ${table}`);
    }
    expect(unlisted).toEqual([]);
  });

  it("payer_stats is written by no module: its triggers (drizzle/0013_i23_payers.sql) keep it in each change's transaction", () => {
    expect(ownersTable("table").get("payer_stats")).toEqual([]);
    const migration = readFileSync(path.join(ROOT, "drizzle", "0013_i23_payers.sql"), "utf8");
    expect(migration).toMatch(/CREATE TRIGGER "fund_requests_payer_stats"/);
    expect(migration).toMatch(/CREATE TRIGGER "payments_payer_stats"/);
  });

  it("fund_requests.status is written by lib/requests/status.ts alone", () => {
    const writers = FILES.filter(({ text }) => /\.(update|insert)\(fundRequests\)[\s\S]{0,200}?\.(set|values)\(\{[^}]*\bstatus\b/.test(text)).map(
      (f) => f.file,
    );
    expect(writers).toEqual(["lib/requests/status.ts"]);
  });

  it("every live event is announced by its listed modules only", () => {
    const owners = ownersTable("live event");
    expect(owners.size).toBeGreaterThanOrEqual(5);
    // The live events' names, from their one type (lib/live/bus.ts).
    const bus = FILES.find((f) => f.file === "lib/live/bus.ts")?.text ?? "";
    const names = new Set([...bus.matchAll(/type:\s*"([a-z.]+)"/g)].map((m) => m[1] ?? ""));
    expect(names.size).toBe(owners.size);
    const listed = [...owners.values()].flat();
    const unlisted: string[] = [];
    for (const { file, text } of FILES) {
      if (!/from "@\/lib\/live\/notify"/.test(text)) continue;
      // Only listed modules may announce at all (an event built elsewhere would escape the scan below).
      if (!listed.includes(file)) unlisted.push(`${file} announces`);
      for (const m of text.matchAll(/type:\s*"([a-z.]+)"/g)) {
        const event = m[1] ?? "";
        if (names.has(event) && !(owners.get(event) ?? []).includes(file)) unlisted.push(`${file} announces ${event}`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it("each table and each live event has exactly one owning module: its writers and publishers share one folder", () => {
    const split: string[] = [];
    for (const heading of ["table", "live event"])
      for (const [name, files] of ownersTable(heading)) {
        // Kept by the database itself (its row says which triggers): no module, so no folder.
        if (name === "payer_stats" && files.length === 0) continue;
        const folders = new Set(files.map((f) => path.dirname(f)));
        if (folders.size !== 1) split.push(`${name}: ${[...folders].join(", ")}`);
      }
    expect(split).toEqual([]);
  });

  it("HTTP stays in app/: no domain module builds answers (only lib/http and the guards do)", () => {
    const http = /from "@\/lib\/http\/(api-error|envelope)"|from "next\/server"/;
    // lib/actors/permissions.ts is the use cases' guard: its refusal is withStaff's 403 (docs/architecture.md "Actors").
    // lib/api-keys/guard.ts and authenticate.ts are the API's door, as withStaff is the dashboard's.
    const guards = ["lib/auth/guard.ts", "lib/auth/page-guard.ts", "lib/actors/permissions.ts", "lib/api-keys/guard.ts", "lib/api-keys/authenticate.ts"];
    const layer = (file: string) => file.startsWith("lib/http/") || guards.includes(file);
    const domains = FILES.filter(({ file, text }) => file.startsWith("lib/") && !layer(file) && http.test(text)).map((f) => f.file);
    expect(domains).toEqual([]);
  });
});

describe("what the code cites", () => {
  it("no file under app/, lib/, components/ or sandbox/ cites DESIGN, which the repository does not ship", () => {
    const citing = ["app", "lib", "components", "sandbox"]
      .flatMap((dir) => sources(dir))
      .filter((file) => /\bDESIGN\b/.test(readFileSync(path.join(ROOT, file), "utf8")));
    expect(citing).toEqual([]);
  });
});

// The hardening suite's own fixtures: its ports, accounts and build, `next start` of that build with a
// fresh copy of the migrated template database, and the dashboard API shapes its tests read. The shared
// parts (sign-in, waiting, processes, the sandbox's control API, signed deliveries) are in tests/support.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { inject } from "vitest";

import { copyPgliteTemplate } from "@/tests/support/db-template";
import { requireBuild, startNextServer, type NextServer } from "@/tests/support/next-server";
import type { Session } from "@/tests/support/sign-in";

import { freePortRun } from "@/tests/support/ports";

import { DIST_DIR, HARDENING_KEY } from "./constants";

export { DIST_DIR, HARDENING_KEY };
export const AUTH_SECRET = "hardening-auth-secret-9f3b7c1d5e8a2b4c6d0e1f2a3b4c5d6e";
export const DEMO = { email: "admin@fundboard.test", password: "fundboard-demo" } as const;
export const REAL_ADMIN = { email: "owner@hardening.test", password: "hardening-owner-pass-2718" } as const;

/** Each server's port, free when the suite starts (tests/support/ports.ts): a sandbox takes three (API, verify, mail sink). */
const app = () => freePortRun();
const sandbox = () => freePortRun(3);
export const PORTS = {
  leak: { app: await app(), sandbox: await sandbox() },
  crashPglite: { app: await app(), sandbox: await sandbox() },
  crashPostgres: { app: await app(), sandbox: await sandbox() },
  restart: { app: await app(), sandbox: await sandbox() },
  badInput: { app: await app(), sandbox: await sandbox() },
  faults: { app: await app(), sandbox: await sandbox(), upstream: await app() },
  production: { app: await app(), appStart: await app(), sandbox: await sandbox(), service: await sandbox() },
  review: { app: await app(), sandbox: await sandbox() },
  campaignCrash: { app: await app(), sandbox: await sandbox() },
  campaignStop: { app: await app(), sandbox: await sandbox() },
  planCrash: { app: await app(), sandbox: await sandbox() },
  accounts: { app: await app(), sandbox: await sandbox() },
  campaignsReview: { app: await app(), sandbox: await sandbox() },
  limits: { app: await app(), sandbox: await sandbox() },
  planPage: { app: await app(), sandbox: await sandbox() },
  exportCap: { app: await app(), sandbox: await sandbox() },
} as const;

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), `fundboard-hardening-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh DATA_DIR holding a copy of the migrated template database (only the database: no lock, no secret). */
export function freshDataDir(label: string): { dir: string; remove(): void } {
  const made = tempDir(label);
  copyPgliteTemplate(inject("pgliteTemplate"), made.dir);
  return made;
}

export type Dashboard = NextServer;

export interface DashboardOptions {
  port: number;
  /** Where the embedded database lives (ignored by the app when DATABASE_URL is set). */
  dataDir: string;
  env: Record<string, string>;
  readyTimeoutMs?: number;
}

/** Sandbox mode: no SERVICE_BASE_URL; the app calls 127.0.0.1:sandboxPort (+1 for verify) with the key. */
export function sandboxModeEnv(sandboxPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return { SANDBOX_PORT: String(sandboxPort), SERVICE_API_KEY: HARDENING_KEY, ...extra };
}

/** `next start` of the hardening build, waited for on GET /api/health (bounded). */
export function startDashboard(opts: DashboardOptions): Promise<Dashboard> {
  requireBuild(DIST_DIR, "the hardening global setup builds it (npm run test:hardening).");
  return startNextServer({ distDir: DIST_DIR, ...opts });
}

// ---------------------------------------------------------------------------------------------------
// The dashboard's API as the tests read it

export interface Envelope<T = unknown> {
  status: boolean;
  message: string;
  /** An error answer's code, from lib/client/http/error-codes.ts (docs/architecture.md, "Error codes"). */
  code?: string;
  data: T;
}

export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === "boolean" && typeof v.message === "string" && "data" in v;
}

export interface ListData<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface FundRequestView {
  requestId: string | null;
  reference: string;
  tag: string;
  amount: string;
  description: string;
  status: "sending" | "pending" | "accepted" | "declined" | "failed";
}

/** Creates a fund request through the dashboard's own API (as a signed-in admin or operator). */
export async function createRequest(session: Session, input: { tag: string; amount: number | string; description: string }): Promise<FundRequestView> {
  const key = `hard_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
  const res = await session.json<Envelope<FundRequestView>>("/api/requests", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...input, idempotencyKey: key }),
  });
  if (res.status !== 201) throw new Error(`POST /api/requests answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body.data;
}

/** Fails loudly in CI without Postgres; elsewhere a missing TEST_DATABASE_URL only skips the Postgres cases. */
export function postgresBaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.CI && !url) throw new Error("CI must set TEST_DATABASE_URL: the hardening suite runs its Postgres cases there (see .ci/run).");
  return url;
}

/** Every form the key could take on the wire: itself, and its base64 / base64url at each byte alignment. */
export function keyNeedles(key: string): string[] {
  const needles = new Set<string>([key]);
  const bytes = Buffer.from(key, "utf8");
  for (let shift = 0; shift < 3; shift++) {
    const padded = Buffer.concat([Buffer.alloc(shift, 0x41), bytes]);
    const encoded = padded.toString("base64");
    // Drop the characters that depend on the neighbouring bytes: the rest appears whatever surrounds the key.
    const first = Math.ceil((shift * 8) / 6);
    const last = Math.floor((padded.length * 8) / 6);
    const core = encoded.slice(first, last);
    needles.add(core);
    needles.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...needles];
}

// The app's route handlers called in this process, as Next.js calls them, over a real embedded database (a migrated
// template's copy) and a real sandbox: for suites that test a door (the API's guard and its operations) without a
// server. The app reads its configuration from the environment once, so this points the environment at this file's
// database and sandbox, in live mode against the sandbox (keys are fb_live_), and forgets the process's holders
// before and after.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { NextRequest } from "next/server";
import { afterAll, beforeAll, inject } from "vitest";

import { staffActor, type StaffActor } from "@/lib/actors/actor";
import type { Role } from "@/lib/client/auth/roles";
import { getDatabase, getDb } from "@/lib/db";
import type { Db } from "@/lib/db/client";
import { staff } from "@/lib/db/schema";
import type { Sandbox } from "@/sandbox/server";

import { copyPgliteTemplate } from "./db-template";
import { startTestSandbox } from "./sandbox";

const HOLDERS = ["config", "service", "balance-cache", "database", "fetch-gate"];

function forgetHolders(): void {
  const g = globalThis as unknown as Record<symbol, unknown>;
  for (const name of HOLDERS) delete g[Symbol.for(`fundboard.${name}`)];
}

export interface InProcessApp {
  readonly sandbox: Sandbox;
  db(): Promise<Db>;
  /** A staff member of `role` in the app's database, as withStaff would make them. */
  person(role: Role, name?: string): Promise<StaffActor>;
}

/** Call first in a file: the app's database and a sandbox for the file's tests. */
export function inProcessApp(env: Record<string, string> = {}): InProcessApp {
  let sb: Sandbox | null = null;
  const saved = { ...process.env };
  let dataDir = "";
  beforeAll(async () => {
    sb = await startTestSandbox({ apiKey: "in-process-test-key" });
    dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-in-process-"));
    copyPgliteTemplate(inject("pgliteTemplate"), dataDir);
    Object.assign(process.env, {
      SERVICE_BASE_URL: sb.apiUrl,
      SERVICE_VERIFY_BASE_URL: sb.verifyUrl,
      SERVICE_API_KEY: sb.apiKey,
      AUTH_SECRET: "a".repeat(40),
      DATA_DIR: dataDir,
      ...env,
    });
    delete process.env.DATABASE_URL;
    forgetHolders();
  });
  afterAll(async () => {
    await (await getDatabase()).close();
    rmSync(dataDir, { recursive: true, force: true });
    forgetHolders();
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    await sb?.close();
  });
  return {
    get sandbox() {
      if (!sb) throw new Error("the sandbox runs only inside the file's tests");
      return sb;
    },
    db: () => getDb(),
    async person(role, name = `${role} ${randomBytes(2).toString("hex")}`) {
      const email = `${role}-${randomBytes(4).toString("hex")}@example.test`;
      const [row] = await (await getDb()).insert(staff).values({ email, name, role, passwordHash: "x" }).returning();
      if (!row) throw new Error("staff insert returned nothing");
      return staffActor({ ...row, sessionId: null }, "203.0.113.9");
    },
  };
}

type Handler<P> = (request: NextRequest, route: { params: Promise<P> }) => Promise<Response>;

export interface CallInit<P> {
  method?: string;
  /** Bearer key; none when absent. */
  key?: string;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  params?: P;
}

export interface Answer {
  status: number;
  headers: Headers;
  json: { status: boolean; message: string; code?: string; data: unknown };
}

/** Calls a route handler with a request to `pathAndQuery` (under http://localhost), answering its status and JSON. */
export async function callRoute<P extends Record<string, string>>(handler: Handler<P>, pathAndQuery: string, init: CallInit<P> = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.idempotencyKey) headers["idempotency-key"] = init.idempotencyKey;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const request = new NextRequest(`http://localhost${pathAndQuery}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? ({} as P)) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as Answer["json"] };
}

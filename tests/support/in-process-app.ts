// The app's route handlers called in this process, as Next.js calls them, over a real embedded database (a migrated
// template's copy) and a real sandbox: for suites that test a door (the API's guard and its operations) without a
// server. The app reads its configuration from the environment once, so this points the environment at this file's
// database and sandbox, in live mode against the sandbox (keys are fb_live_), and forgets the process's holders
// before and after. A suite that never reaches the service asks for no sandbox: the app then runs in sandbox mode
// (no SERVICE_BASE_URL; keys are fb_test_).
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
  /** The file's sandbox; throws in a file that asked for none. */
  readonly sandbox: Sandbox;
  db(): Promise<Db>;
  /** A staff member of `role` in the app's database, as withStaff would make them. */
  person(role: Role, name?: string): Promise<StaffActor>;
}

export interface InProcessAppOptions {
  /** Start a sandbox and run the app in live mode against it (the default); false: no sandbox, and sandbox mode. */
  sandbox?: boolean;
}

/** Call first in a file: the app's database and (unless told otherwise) a sandbox for the file's tests. */
export function inProcessApp(env: Record<string, string> = {}, options: InProcessAppOptions = {}): InProcessApp {
  const withSandbox = options.sandbox ?? true;
  let sb: Sandbox | null = null;
  const saved = { ...process.env };
  let dataDir = "";
  beforeAll(async () => {
    if (withSandbox) sb = await startTestSandbox({ apiKey: "in-process-test-key" });
    dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-in-process-"));
    copyPgliteTemplate(inject("pgliteTemplate"), dataDir);
    for (const name of ["SERVICE_BASE_URL", "SERVICE_VERIFY_BASE_URL", "SERVICE_API_KEY"]) delete process.env[name];
    const service = sb ? { SERVICE_BASE_URL: sb.apiUrl, SERVICE_VERIFY_BASE_URL: sb.verifyUrl, SERVICE_API_KEY: sb.apiKey } : {};
    Object.assign(process.env, { ...service, AUTH_SECRET: "a".repeat(40), DATA_DIR: dataDir, ...env });
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
      if (!withSandbox) throw new Error("this file's app runs with no sandbox (inProcessApp(env, { sandbox: false })): it has none to give");
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

/**
 * A route handler of params P. Its parameters are checked as a method's are (either way round), so with P left at its
 * default a handler of any params is one: `callRoute<Data>(handler, ...)` names the answer's data alone.
 */
export type RouteHandler<P = Record<string, string>> = {
  handle(request: NextRequest, route: { params: Promise<P> }): Promise<Response>;
}["handle"];

export interface CallInit<P = Record<string, string>> {
  method?: string;
  /** Bearer key; none when absent. */
  key?: string;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  params?: P;
}

/** A route's answer: its status, headers and JSON envelope, whose data the caller names as T (unchecked). */
export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  json: { status: boolean; message: string; code?: string; data: T };
}

/** Calls a route handler with a request to `pathAndQuery` (under http://localhost), answering its status and JSON. */
export async function callRoute<T = unknown, P extends Record<string, string> = Record<string, string>>(
  handler: RouteHandler<P>,
  pathAndQuery: string,
  init: CallInit<P> = {},
): Promise<Answer<T>> {
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
  return { status: response.status, headers: response.headers, json: (await response.json()) as Answer<T>["json"] };
}

// Migrated template databases, made once per run by a suite's global setup and copied for each test database:
// a first PGlite start spends most of its seconds in initdb and the migrations, which would otherwise repeat for
// every file (docs/decisions.md, "CI time"). The copies are the same bytes a fresh migrated database would hold.
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

import { openDatabase } from "@/lib/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** A folder holding a migrated embedded database (`pgdata`), or "" when the run made none. */
    pgliteTemplate: string;
    /** The name of a migrated database on the TEST_DATABASE_URL server, or "" when the run made none. */
    postgresTemplate: string;
  }
}

/** Makes a migrated embedded database in a new temporary folder; `remove` deletes it. */
export async function makePgliteTemplate(label: string): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), `fundboard-${label}-template-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const database = await openDatabase({ kind: "pglite", dataDir: dir });
    await database.close();
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, remove };
}

/**
 * Copies the template's database (not its lock) into `dataDir`, which then opens as a fresh migrated database; with
 * no template (a run whose setup made none: `inject` gives undefined) nothing, and the database is made from nothing.
 */
export function copyPgliteTemplate(template: string | undefined, dataDir: string): void {
  if (!template) return;
  cpSync(path.join(template, "pgdata"), path.join(dataDir, "pgdata"), { recursive: true });
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Makes a migrated database on the server of `baseUrl` (no connection left open, so it can be a template). */
export async function makePostgresTemplate(baseUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `fundboard_template_${randomBytes(6).toString("hex")}`;
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const drop = () => withClient(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  try {
    const database = await openDatabase({ kind: "postgres", url: databaseUrl(baseUrl, name) });
    await database.close();
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, drop };
}

/** A throwaway database on the server of `baseUrl` (a copy of `template` when given), dropped by `drop`. */
export async function createTempPostgres(baseUrl: string, template = ""): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fundboard_test_${randomBytes(6).toString("hex")}`;
  await withClient(baseUrl, (c) => c.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(baseUrl, name),
    drop: () => withClient(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

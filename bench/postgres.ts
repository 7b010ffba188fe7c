// A scratch database on the DATABASE_URL server for the Postgres intake run, dropped afterwards; DATABASE_URL itself
// when the role may not create databases (the counts only look at the bench's own uuids, so sharing is safe).
import pg from "pg";

export interface ScratchDatabase {
  url: string;
  scratch: boolean;
  drop(): Promise<void>;
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function scratchDatabase(url: string, log: (line: string) => void): Promise<ScratchDatabase> {
  const name = `fundboard_bench_${process.pid}_${Date.now().toString(36)}`;
  try {
    await admin(url, `CREATE DATABASE "${name}"`);
  } catch (error) {
    log(`postgres: could not create a scratch database (${error instanceof Error ? error.message : String(error)}); using DATABASE_URL as it is`);
    return { url, scratch: false, drop: async () => {} };
  }
  const scratchUrl = new URL(url);
  scratchUrl.pathname = `/${name}`;
  return {
    url: scratchUrl.toString(),
    scratch: true,
    drop: () =>
      admin(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((error: unknown) => log(`postgres: could not drop ${name}: ${String(error)}`)),
  };
}

/** The URL with the password hidden, for the report. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}

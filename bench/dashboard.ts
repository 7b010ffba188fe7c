// Starts the built dashboard (`next start`) in sandbox mode against the bench's sandbox.

import { nextStartCommand } from "@/scripts/next-start";
import { launch, waitForHttp, type Managed } from "@/tests/support/processes";

export interface DashboardOptions {
  root: string;
  distDir: string;
  port: number;
  sandboxPort: number;
  apiKey: string;
  dataDir: string;
  /** Postgres instead of the embedded database. */
  databaseUrl?: string;
  /** Further settings of the dashboard (e.g. SERVICE_RATE_LIMIT_PER_MIN); they win over the defaults above. */
  env?: Record<string, string>;
}

export interface Dashboard {
  /** http://localhost:PORT, also its APP_URL (the Origin mutating routes expect). */
  url: string;
  proc: Managed;
  stop(): Promise<void>;
}

// Nothing from the caller's environment may point the dashboard at a real service or another database.
const DROPPED = [
  "DATABASE_URL",
  "SERVICE_BASE_URL",
  "SERVICE_VERIFY_BASE_URL",
  "SERVICE_API_KEY",
  "ADMIN_EMAIL",
  "ADMIN_PASSWORD",
  "AUTH_SECRET",
  "NEXT_OUTPUT",
];

export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of DROPPED) delete env[name];
  return env;
}

export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const url = `http://localhost:${o.port}`;
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: o.distDir,
    PORT: String(o.port),
    APP_URL: url,
    DATA_DIR: o.dataDir,
    SANDBOX_PORT: String(o.sandboxPort),
    SERVICE_API_KEY: o.apiKey,
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...o.env,
  };
  const next = nextStartCommand(o.root, o.port);
  const proc = launch(`dashboard :${o.port}`, next.command, next.args, { cwd: o.root, env });
  try {
    await waitForHttp(`http://127.0.0.1:${o.port}/api/health`, proc, 120_000);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return { url, proc, stop: () => proc.stop() };
}

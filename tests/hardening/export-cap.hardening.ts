// Issue 37 (item 9): the accounting export refuses more than 500,000 payments with a 422 naming the last day, and
// serves exactly 500,000. The payments are made in the database (one INSERT … SELECT), on Postgres, where a second
// connection can write while the dashboard runs.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTempPostgres } from "@/tests/support/db-targets";
import { signIn, type Session } from "@/tests/support/sign-in";

import { DEMO, HARDENING_KEY, PORTS, freshDataDir, postgresBaseUrl, sandboxModeEnv, startDashboard, type Dashboard, type Envelope } from "./support";

const base = postgresBaseUrl();
const CAP = 500_000;

describe.runIf(base)("the accounting export's cap, on Postgres", () => {
  const data = freshDataDir("export-cap");
  let sandbox: Sandbox | undefined;
  let app: Dashboard | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let admin: Session;

  beforeAll(async () => {
    db = await createTempPostgres(base ?? "");
    sandbox = await startSandbox({ port: PORTS.exportCap.sandbox, apiKey: HARDENING_KEY, webhookRetryDelaysMs: [], log: () => {} });
    app = await startDashboard({ port: PORTS.exportCap.app, dataDir: data.dir, env: sandboxModeEnv(PORTS.exportCap.sandbox, { DATABASE_URL: db.url }) });
    admin = await signIn(app.url, DEMO.email, DEMO.password);
    // CAP + 1 verified payments over 2026-01-01 … 2026-01-30 (Lagos days), each noted as unlinked so no job takes them up.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // Without the payer-totals trigger (a superuser's session setting, as CI's role is): 500,001 rows in seconds,
      // and only the export's count matters here.
      await client.query("set session_replication_role = replica");
      await client.query(`
        insert into payments (uuid, type, amount, actual_amount, settled_amount, fees, description, customer_name, customer_tag,
          verification, verification_attempts, verified_at, link_note, received_at)
        select md5('cap-' || g)::uuid::text, 'peer-transfer.success', 120, 100, 99, 1, 'Cap payment ' || g, 'Cap Payer', 'cap.payer' || (g % 500),
          'verified', 1, t, 'Cap row: not linked.', t
        from (select g, timestamptz '2026-01-01 00:00:00+01' + make_interval(secs => g * 5) as t from generate_series(1, ${CAP + 1}) as g) as s`);
    } finally {
      await client.end();
    }
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await sandbox?.close();
    await db?.drop();
    data.remove();
  });

  it("answers 422 naming the last day over 500,000 payments, and streams a file of exactly 500,000", async () => {
    const path = "/api/payments/export?format=xero&from=2026-01-01&to=2026-01-30";
    const over = await admin.json<Envelope<{ fieldErrors: Record<string, string[]> }>>(path);
    expect(over.status).toBe(422);
    expect(over.body.message).toContain("More than 500,000 payments");
    expect(over.body.data.fieldErrors).toHaveProperty("to");

    const client = new pg.Client({ connectionString: db?.url });
    await client.connect();
    try {
      await client.query("set session_replication_role = replica");
      await client.query(`delete from payments where uuid = md5('cap-1')::uuid::text`);
    } finally {
      await client.end();
    }
    const exact = await admin.fetch(path);
    expect(exact.status).toBe(200);
    expect(exact.headers.get("content-type")).toContain("text/csv");
    // The file begins at once (streamed); its first bytes are enough here.
    const reader = exact.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value).split("\n")[0]).toMatch(/^\*Date,\*Amount,/);
    await reader?.cancel();
  });
});

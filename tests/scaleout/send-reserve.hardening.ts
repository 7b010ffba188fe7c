// Issue 19 (item 5): viewers and a running campaign on two instances can never keep an operator from
// sending: the shared budget keeps a reserve for sends (DESIGN §9, docs/architecture.md "The service budget").
import { freePortRun } from "@/tests/support/ports";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type Sandbox } from "@/sandbox/server";
import { createTempPostgres } from "@/tests/support/db-targets";
import { sandboxControl } from "@/tests/support/sandbox-control";
import { signIn, type Session } from "@/tests/support/sign-in";
import { sleep, waitFor } from "@/tests/support/wait-for";

import { requireBuild, startInstance, type Instance } from "./instances";

const KEY = "sk_send_reserve_test_key_0123456789";
const SECRET = "send-reserve-shared-auth-secret-0123456789abcdef";
const PORTS = { a: await freePortRun(), b: await freePortRun(), sandbox: await freePortRun(3) } as const;
// The default limit: the review's storm was against it.
const LIMIT = 90;
const RESERVE = 9; // max(5, 10 %) of LIMIT: the sends' own room
const VIEWERS_PER_INSTANCE = 10;
const SENDS = 14; // one every 5 s: 65 s, more than a whole window
const DEMO = { email: "admin@fundboard.test", password: "fundboard-demo" } as const;
const OWN_REFUSAL = new RegExp(`Fundboard is keeping under the service's limit of ${LIMIT} calls a minute; try again in \\d+ s`);
const base = process.env.TEST_DATABASE_URL;

if (process.env.CI && !base) throw new Error("CI must set TEST_DATABASE_URL: the scale-out tests run on Postgres.");

interface Answer {
  status: number;
  text: string;
}

describe.runIf(base)("the send reserve across two instances", () => {
  let sandbox: Sandbox;
  let db: { url: string; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  const env = () => ({
    DATABASE_URL: db.url,
    SANDBOX_PORT: String(PORTS.sandbox),
    SERVICE_API_KEY: KEY,
    AUTH_SECRET: SECRET,
    SERVICE_RATE_LIMIT_PER_MIN: String(LIMIT),
  });

  beforeAll(async () => {
    requireBuild();
    db = await createTempPostgres(base ?? "");
    sandbox = await startSandbox({ port: PORTS.sandbox, apiKey: KEY, webhookRetryDelaysMs: [], log: () => {} });
    a = await startInstance(PORTS.a, env());
    // A makes the database and the job queues before B starts.
    await signIn(a.url, DEMO.email, DEMO.password);
    b = await startInstance(PORTS.b, env());
  }, 180_000);

  afterAll(async () => {
    await a?.stop("SIGKILL");
    await b?.stop("SIGKILL");
    await sandbox?.close();
    await db?.drop();
  });

  it("answers an operator's send every 5 s with 201 while a campaign sends and 20 viewers storm reads on both instances", async () => {
    const service = sandboxControl(sandbox);
    const admin = await signIn(a.url, DEMO.email, DEMO.password);
    // Plain tags: the campaign's requests stay pending, so every status read asks the service.
    const stamp = Date.now().toString(36);
    const csv = `tag,amount,description\n${Array.from({ length: 200 }, (_, i) => `crowd${stamp}.${i},${100 + i},Dues ${i}`).join("\n")}\n`;
    const form = new FormData();
    form.set("name", "Crowd dues");
    form.set("file", new Blob([csv], { type: "text/csv" }), "dues.csv");
    const uploaded = await admin.json<{ data: { id: string } }>("/api/campaigns", { method: "POST", body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect((await admin.json(`/api/campaigns/${uploaded.body.data.id}/start`, { method: "POST" })).status).toBe(200);
    const ids = await waitFor(
      "the campaign to have sent 10 rows",
      async () => {
        const sent = (await service.requests()).filter((r) => r.requested_sent_to.tag.startsWith(`crowd${stamp}.`)).map((r) => r.request_id);
        return sent.length >= 10 ? sent : undefined;
      },
      60_000,
      250,
    );

    // What the service received, sampled each second: no 58 s span may hold more than the limit.
    const samples: { at: number; calls: number }[] = [];
    const total = async () => Object.values(await service.calls()).reduce((sum, n) => sum + n, 0);
    let storming = true;
    const sampler = (async () => {
      while (storming) {
        samples.push({ at: Date.now(), calls: await total() });
        await sleep(1_000);
      }
    })();

    const reads: Answer[] = [];
    // A read that reached no server (one died under the storm) is counted, and fails the test below.
    let unreachable = 0;
    const viewer = async (session: Session, offset: number) => {
      for (let i = offset; storming; i++) {
        const path = i % 3 === 0 ? "/api/balance?refresh=1" : `/api/requests/${ids[i % ids.length]}`;
        const res = await session.fetch(path).catch(() => null);
        if (!res) {
          unreachable += 1;
          return;
        }
        reads.push({ status: res.status, text: await res.text() });
        // A viewer looping as fast as a person's browser can: a short breath so the 2-core machine keeps up.
        await sleep(100);
      }
    };
    const viewers: Promise<void>[] = [];
    for (const instance of [a, b]) {
      const session = await signIn(instance.url, DEMO.email, DEMO.password);
      for (let v = 0; v < VIEWERS_PER_INSTANCE; v++) viewers.push(viewer(session, v * 7));
    }
    // The storm has filled what reads and background may take before the operator starts. (A viewer held back
    // sees our stored record or the last balance, not an error, so the budget's own table is what shows it.)
    const others = new pg.Client({ connectionString: db.url });
    await others.connect();
    const othersSpent = async () =>
      Number(
        (await others.query<{ n: string }>("select count(*) as n from service_calls where kind <> 'send' and at > now() - interval '60 seconds'")).rows[0]?.n ??
          0,
      );
    let fullest = 0;
    await waitFor(
      "reads and background to fill their room in the budget",
      async () => {
        fullest = Math.max(fullest, await othersSpent());
        return fullest >= LIMIT - RESERVE ? true : undefined;
      },
      90_000,
      250,
    );

    const sends: Answer[] = [];
    const started = Date.now();
    for (let n = 0; n < SENDS; n++) {
      await sleep(Math.max(0, started + n * 5_000 - Date.now()));
      const res = await admin.fetch("/api/requests", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tag: `operator${stamp}.${n}`, amount: "250", description: `Operator ${n}`, idempotencyKey: `op_${stamp}_${n}` }),
      });
      sends.push({ status: res.status, text: (await res.text()).slice(0, 300) });
    }
    storming = false;
    await Promise.all([...viewers, sampler]);
    // Still full at the end: the operator's sends were admitted while the others' room stayed spent.
    fullest = Math.max(fullest, await othersSpent());
    await others.end();

    expect(
      sends.filter((s) => s.status !== 201),
      "every operator send answered 201",
    ).toEqual([]);
    // The viewers filled their room and were held back by the dashboard, never by the service (no 429 reached anyone).
    expect(fullest).toBeGreaterThanOrEqual(LIMIT - RESERVE);
    // Every viewer's every read was answered, and the storm was a storm (a few hundred reads, not a handful).
    expect(unreachable, "reads that reached no server").toBe(0);
    expect(reads.length).toBeGreaterThan(VIEWERS_PER_INSTANCE * 2 * 10);
    const failures = reads.filter((r) => r.status >= 500 && !OWN_REFUSAL.test(r.text));
    expect(
      failures.map((r) => `${r.status} ${r.text.slice(0, 120)}`),
      "server errors under the storm, other than the budget's own refusal",
    ).toEqual([]);
    expect(reads.filter((r) => /rate-limiting/.test(r.text))).toEqual([]);
    // A refusal people do see (a read with nothing stored to fall back on) says it is ours, with the limit.
    for (const r of reads.filter((x) => /try again in/.test(x.text))) expect(r.text).toMatch(OWN_REFUSAL);
    for (const later of samples) {
      const earliest = samples.find((s) => later.at - s.at <= 58_000);
      if (earliest) expect(later.calls - earliest.calls, `service calls between ${earliest.at} and ${later.at}`).toBeLessThanOrEqual(LIMIT);
    }
  });
});

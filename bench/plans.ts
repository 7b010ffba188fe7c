// Benchmark 11: recurring collections (issue 24). One dashboard on a fresh embedded database: a monthly plan of
// `members` members, then each of its last `periods` periods run over HTTP (`POST /api/plans/:id/run`: the period's
// campaign made already sending, the answer sent after its commit), each run timed. Then, with the server stopped,
// every row of those campaigns is given a request (half paid with a payment, the rest declined, pending or failed),
// and the dues board (`GET /api/plans/:id/board`, its CSV, only those who owe) is timed over `samples` passes.
// Targets: the board of 1,000 members × 12 periods under 300 ms; making a period of 1,000 members under 2 s.
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { sql } from "drizzle-orm";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { periodOf, recentPeriods } from "@/lib/client/plans/schedule";
import { dayOf, monthStart } from "@/lib/client/time/zone";
import { openDatabase, queryRows } from "@/lib/db/client";
import { fakeAddress as nextClientIp } from "@/tests/support/sign-in";

import type { BenchContext } from "./context";
import { uploadPlan } from "./dashboard-api";
import { startDashboard, type Dashboard } from "./dashboard";
import { freePorts, SERVER_PORTS } from "./ports";
import { signIn, timeGet } from "./session";
import { median, round } from "./stats";

const TIME_ZONE = "Africa/Lagos";

export interface PlansResult {
  members: number;
  periods: number;
  /** Cells of the board: members × periods. */
  cells: number;
  /** Each period's run (POST, answered once its campaign is sending): the median and the slowest. */
  makeMedianMs: number;
  makeMaxMs: number;
  seedMs: number;
  /** Median whole-response times. */
  boardMs: number;
  boardCsvMs: number;
  boardOwingMs: number;
}

/** Every row of the plan's campaigns a request of varied outcome (and a payment for the paid), as if answered. */
async function answerEveryRow(dataDir: string, planId: string): Promise<void> {
  const database = await openDatabase({ kind: "pglite", dataDir }, { migrate: false });
  try {
    await database.db.execute(sql`update campaigns set status = 'done', finished_at = now() where plan_id = ${planId}::uuid`);
    await database.db.execute(sql`
      with r as (
        select cr.id as row_id, cr.campaign_id, cr.row, cr.tag, cr.amount_naira, cr.description, abs(hashtext(cr.campaign_id::text || ':' || cr.row)) % 10 as h
        from campaign_rows cr join campaigns c on c.id = cr.campaign_id
        where c.plan_id = ${planId}::uuid and cr.fund_request_id is null and cr.status in ('queued', 'claimed')
      ), made as (
        insert into fund_requests (reference, idempotency_key, request_id, tag, amount, description, status, decided_at, created_at, updated_at, last_checked_at)
        select 'fb_bench_plan_' || row_id, 'cmp_' || campaign_id || '_' || row, 'bp' || row_id, tag, amount_naira, description,
          case when h < 5 then 'accepted' when h < 7 then 'declined' when h < 9 then 'pending' else 'failed' end,
          case when h < 7 then now() end, now(), now(), now()
        from r
        returning id, idempotency_key, tag, amount, status
      ), linked as (
        update campaign_rows cr set status = 'sent', fund_request_id = made.id, claimed_at = null
        from made where made.idempotency_key = 'cmp_' || cr.campaign_id || '_' || cr.row
        returning made.id, made.tag, made.amount, made.status
      )
      insert into payments (uuid, type, amount, actual_amount, settled_amount, fees, description, paypoint, customer_uuid, customer_name,
        customer_tag, customer_email, customer_phone, customer_avatar, peer_tag, verification, verification_attempts, verified_at, fund_request_id, received_at)
      select md5('bench-plan-' || id)::uuid::text, 'peer-transfer.success', amount, amount, amount - 15, 15, 'Bench dues', false,
        md5('bench-member-' || tag)::uuid::text, 'Member ' || tag, tag, 'member@example.com', '+2348030000000',
        'http://127.0.0.1:4010/avatars/member.svg', tag, 'verified', 1, now(), id, now()
      from linked where status = 'accepted'`);
  } finally {
    await database.close();
  }
}

export async function benchPlans(ctx: BenchContext): Promise<PlansResult> {
  const { members, periods, warmups, samples } = ctx.options.plans;
  const dataDir = mkdtempSync(path.join(ctx.tempRoot, "plans-"));
  const start = async () =>
    startDashboard({
      root: ctx.options.root,
      distDir: ctx.distDir,
      port: await freePorts(...SERVER_PORTS),
      sandboxPort: ctx.sandbox.port,
      apiKey: ctx.apiKey,
      dataDir,
    });
  let server: Dashboard | null = await start();
  let planId = "";
  const makeMs: number[] = [];
  const seeded = performance.now();
  try {
    const admin = await signIn(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    // Due on the 1st at 00:00 in Lagos, from far enough back that the last `periods` months are all due.
    const startsOn = monthStart(dayOf(new Date(), TIME_ZONE), -periods - 1);
    const roster = `tag,amount\n${Array.from({ length: members }, (_, i) => `bench.member${i},${1000 + (i % 50)}`).join("\n")}\n`;
    const plan = await uploadPlan(
      admin,
      { name: "Bench dues", frequency: "monthly", day: "1", sendAt: "00:00", startsOn, descriptionTemplate: "{period} dues" },
      roster,
    );
    if (plan.members !== members) throw new Error(`plan upload: ${plan.members} members, not ${members}`);
    planId = plan.id;
    const due = recentPeriods({ frequency: "monthly", day: 1, sendAt: "00:00", startsOn, endsOn: null, timeZone: TIME_ZONE }, new Date(), periods);
    const keys = due.map((p) => p.period);
    if (keys.length !== periods) throw new Error(`${keys.length} periods due, not ${periods} (starts ${startsOn})`);
    // Only the current period or a missed one may be run: the past ones are listed missed, as a plan whose server was
    // down for months would have them (with the server stopped: the embedded database has one opener).
    await server.stop();
    server = null;
    const seeding = await openDatabase({ kind: "pglite", dataDir }, { migrate: false });
    try {
      const current = periodOf("monthly", dayOf(new Date(), TIME_ZONE));
      for (const p of due.filter((d) => d.period !== current))
        await seeding.db.execute(
          sql`insert into plan_periods (plan_id, period, due_at, status) values (${planId}::uuid, ${p.period}, ${p.dueAt.toISOString()}::timestamptz, 'missed') on conflict do nothing`,
        );
    } finally {
      await seeding.close();
    }
    server = await start();
    const runner = await signIn(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    for (const period of keys) {
      const t0 = performance.now();
      const res = await runner.fetch(`/api/plans/${planId}/run`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ period }),
      });
      const ms = performance.now() - t0;
      if (res.status !== 201) throw new Error(`run ${period}: HTTP ${res.status} ${await res.text()}`);
      makeMs.push(ms);
    }
    ctx.log(`plans: ${periods} periods of ${members} members made over HTTP, median ${median(makeMs)} ms each`);
    await server.stop();
    server = null;
    await answerEveryRow(dataDir, planId);
  } finally {
    await server?.stop();
  }
  const seedMs = Math.round(performance.now() - seeded);
  const database = await openDatabase({ kind: "pglite", dataDir }, { migrate: false });
  const [count] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from campaign_rows cr join campaigns c on c.id = cr.campaign_id where c.plan_id = ${planId}::uuid and cr.fund_request_id is not null`,
  );
  await database.close();
  if ((count?.n ?? 0) < members * periods) throw new Error(`only ${count?.n ?? 0} of ${members * periods} cells have a request`);

  server = await start();
  try {
    const admin = await signIn(server.url, DEMO_ADMIN.email, DEMO_ADMIN.password, nextClientIp());
    const paths = {
      board: `/api/plans/${planId}/board?periods=${periods}`,
      csv: `/api/plans/${planId}/board?periods=${periods}&format=csv`,
      owing: `/api/plans/${planId}/board?periods=${periods}&owing=1`,
    };
    const taken = new Map<string, number[]>();
    for (let pass = 0; pass < warmups + samples; pass++) {
      for (const p of Object.values(paths)) {
        const ms = await timeGet(admin, p);
        if (pass >= warmups) taken.set(p, [...(taken.get(p) ?? []), ms]);
      }
    }
    const result: PlansResult = {
      members,
      periods,
      cells: members * periods,
      makeMedianMs: median(makeMs),
      makeMaxMs: round(Math.max(...makeMs)),
      seedMs,
      boardMs: median(taken.get(paths.board) ?? [0]),
      boardCsvMs: median(taken.get(paths.csv) ?? [0]),
      boardOwingMs: median(taken.get(paths.owing) ?? [0]),
    };
    ctx.log(`plans: board ${result.boardMs} ms, CSV ${result.boardCsvMs} ms, only those who owe ${result.boardOwingMs} ms`);
    return result;
  } finally {
    await server.stop();
  }
}

// A process that dies by SIGKILL at a chosen moment (tests/events/consumers.test.ts): after an event's commit
// ("committed"), after its dispatch ("dispatched"), or in the middle of its consumer's act ("acting").
import { openDatabase } from "@/lib/db/client";
import { appendEvent } from "@/lib/events/append";
import { dispatchEvents, eventsDispatchJob } from "@/lib/events/dispatch.job";
import { createJobEngine, registerJobs } from "@/lib/jobs/engine";
import { testConsumer } from "@/tests/support/test-consumer";

const url = process.env.KILL_DATABASE_URL ?? "";
const moment = process.env.KILL_AT ?? "committed";
const database = await openDatabase({ kind: "postgres", url });
const consumer = testConsumer(database.db, { holdMs: moment === "acting" ? 60_000 : 0 });
const event = await database.db.transaction((tx) => appendEvent(tx, "payer.updated", { tag: `kill-${moment}` }));
process.stdout.write(`${event.id}\n`);
if (moment !== "committed") {
  const jobs = [eventsDispatchJob([consumer]), consumer.job];
  const boss = await createJobEngine(database, url, jobs, { work: moment === "acting" });
  await dispatchEvents(database.db, boss, [consumer]);
  if (moment === "acting") {
    await registerJobs(boss, [consumer.job], { db: database.db, log: () => undefined, signal: new AbortController().signal });
    // Dies once a job is active: its act has begun and not finished.
    for (;;) {
      const active = await database.pool?.query("select count(*)::int as n from pgboss.job where name = 'consumer-test' and state = 'active'");
      if ((active?.rows[0] as { n: number } | undefined)?.n) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
process.stdout.write("dying\n");
process.kill(process.pid, "SIGKILL");

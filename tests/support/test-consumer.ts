import { sql } from "drizzle-orm";

import type { BusinessEvent } from "@/lib/client/events/catalogue";
import { queryRows, type Db } from "@/lib/db/client";
import { consumerPayload, type EventConsumer } from "@/lib/events/consumer";
import { defineJob } from "@/lib/jobs/define";

// A durable consumer of the tests' own (lib/events knows no consumer of its own yet): it records every action it
// takes in `consumer_test_acts`, one row per (event, recipient, run), so a test counts how often it acted.

export const TEST_CONSUMER = "consumer-test";

export async function makeActsTable(db: Db): Promise<void> {
  await db.execute(sql`create table if not exists consumer_test_acts (event_id text not null, recipient text not null, at timestamptz not null default now())`);
}

export async function actsOf(db: Db): Promise<{ event_id: string; recipient: string; n: number }[]> {
  return queryRows(db, sql`select event_id, recipient, count(*)::int as n from consumer_test_acts group by event_id, recipient order by event_id, recipient`);
}

/** Acts on `payer.updated` for two recipients; `slow` holds each act open (to be killed mid-way). */
export function testConsumer(db: Db, { holdMs = 0 }: { holdMs?: number } = {}): EventConsumer {
  return {
    name: TEST_CONSUMER,
    types: ["payer.updated"],
    recipientsFor: async () => (event: BusinessEvent) => (event.type === "payer.updated" ? ["alice", "bola"] : []),
    job: defineJob({
      queue: "consumer-test",
      payload: consumerPayload,
      // A killed worker's job expires after 3 s and is retried at once (the test waits for it, not for minutes).
      policy: { policy: "standard", retryLimit: 3, retryDelay: 0, expireInSeconds: 3 },
      work: { workers: 2, batchSize: 1, pollingIntervalSeconds: 0.5 },
      handler: () => async (jobs) => {
        for (const job of jobs) {
          if (holdMs > 0) await new Promise((resolve) => setTimeout(resolve, holdMs));
          await db.execute(sql`insert into consumer_test_acts (event_id, recipient) values (${job.eventId}, ${job.recipient})`);
        }
      },
    }),
  };
}

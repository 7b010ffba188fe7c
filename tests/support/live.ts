import { randomUUID } from "node:crypto";

import type { Db } from "@/lib/db/client";
import { subscribe } from "@/lib/live/bus";
import { announce } from "@/lib/live/notify";

import { waitFor } from "./wait-for";

/**
 * Waits until every live event committed before now has been heard: a marker is announced in its own transaction, and
 * notifications arrive in commit order, so once it is heard the earlier ones were too (lib/live/listen.ts).
 */
export async function settleLive(db: Db): Promise<void> {
  const marker = `settle-${randomUUID()}`;
  let heard = false;
  const unsubscribe = subscribe((e) => {
    if (e.type === "campaign.progress" && e.campaignId === marker) heard = true;
  });
  try {
    await db.transaction((tx) => announce(tx, { type: "campaign.progress", campaignId: marker }));
    await waitFor("the live marker", () => (heard ? true : undefined));
  } finally {
    unsubscribe();
  }
}

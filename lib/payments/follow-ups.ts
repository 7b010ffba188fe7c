import "server-only";

import { getDb } from "@/lib/db";

import { paymentDeps } from "./app-deps";
import { followUpPayment } from "./after-record";
import { createFollowUpQueue, type FollowUpQueue } from "./follow-up-queue";

const KEY = Symbol.for("fundboard.payment-follow-ups");
type Holder = { [KEY]?: FollowUpQueue };

/** The process's queue of payment follow-ups (linking, verification). */
export function getFollowUps(): FollowUpQueue {
  const g = globalThis as Holder;
  g[KEY] ??= createFollowUpQueue(async (uuid) => followUpPayment(paymentDeps(await getDb()), uuid));
  return g[KEY];
}

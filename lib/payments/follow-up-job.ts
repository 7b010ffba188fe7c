import "server-only";

import { sendJob } from "@/lib/jobs/engine";
import { followUpJobId, QUEUES } from "@/lib/jobs/queues";

/** Queues the payment's follow-up (link, then verify); a payment has one such job, however often this runs. */
export async function queueFollowUp(paymentUuid: string): Promise<void> {
  const uuid = paymentUuid.toLowerCase();
  await sendJob(QUEUES.paymentFollowUp, { uuid }, { id: followUpJobId(uuid) });
}

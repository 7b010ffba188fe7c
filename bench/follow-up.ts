// Benchmark 6: a payment's follow-up. From the dashboard acknowledging a signed delivery (its 200) to the payment
// being verified at the verify host, deliveries sent one at a time on an otherwise idle dashboard. Each is the notice
// of a real sandbox transaction (a request made straight at the sandbox and accepted there, so the verify host knows
// it and the sandbox sends no delivery of its own); the moment of verification is the `payment.updated` event
// (verification "verified") on /api/live, published as the verdict is saved, and GET /api/payments/:uuid then
// confirms the stored verdict.
import { performance } from "node:perf_hooks";

import { sandboxControl } from "@/tests/support/sandbox-control";
import { signedHeaders } from "@/tests/support/sign-delivery";
import { eventWith, SseClient } from "@/tests/support/sse-client";
import { sleep } from "@/tests/support/wait-for";

import type { BenchContext } from "./context";
import { freshTag } from "./dashboard-api";
import type { Session } from "./session";
import { summarize, type Summary } from "./stats";

export interface FollowUpResult {
  deliveries: number;
  /** Deliveries not answered 200. */
  notAcknowledged: number;
  /** Acknowledged, but not verified within `timeoutMs` (or verified as failed). */
  notVerified: number;
  timeoutMs: number;
  /** Random pause before each delivery, at most this long, so they do not fall in step with the job engine's polling. */
  maxPauseMs: number;
  /** Webhook 200 → verified. */
  latencyMs: Summary;
  /** The delivery's own round trip (send → 200), for comparison. */
  acknowledgeMs: Summary;
  problems: string[];
}

export async function benchFollowUp(ctx: BenchContext, admin: Session): Promise<FollowUpResult> {
  const { deliveries, maxPauseMs, timeoutMs } = ctx.options.followUp;
  const control = sandboxControl({ apiUrl: ctx.sandbox.apiUrl, apiKey: ctx.apiKey });
  const webhookUrl = `${admin.baseUrl}/api/webhooks/peer-transfer`;
  const live = await SseClient.open(admin);
  const latencies: number[] = [];
  const acknowledge: number[] = [];
  const problems: string[] = [];
  let notAcknowledged = 0;
  let notVerified = 0;
  try {
    for (let i = 0; i < deliveries; i++) {
      const requestId = await control.createDirect({ amount: 150 + i, tag: freshTag("fu"), description: `Bench follow-up ${i}` });
      const notice = await control.acceptForPayment(requestId);
      const body = JSON.stringify(notice);
      await sleep(Math.random() * maxPauseMs);
      const sent = performance.now();
      // Listening from before the send, so a verdict that beat the 200 back to the bench would still be seen (as 0 ms).
      const verified = live.waitFor(eventWith("payment.updated", { uuid: notice.uuid, verification: "verified" }), timeoutMs, sent);
      const res = await fetch(webhookUrl, { method: "POST", headers: signedHeaders(body, ctx.apiKey), body, signal: AbortSignal.timeout(30_000) });
      const answer = await res.text();
      const acknowledged = performance.now();
      if (res.status !== 200) {
        notAcknowledged += 1;
        problems.push(`delivery ${notice.uuid}: HTTP ${res.status} ${answer.slice(0, 120)}`);
        continue;
      }
      acknowledge.push(acknowledged - sent);
      const event = await verified;
      const stored = await admin.json<{ verification: string; verificationError: string | null }>(`/api/payments/${notice.uuid}`);
      if (event && stored.data?.verification === "verified") {
        latencies.push(Math.max(0, event.at - acknowledged));
      } else {
        notVerified += 1;
        problems.push(
          `payment ${notice.uuid}: ${event ? "event seen" : `no verified event within ${timeoutMs / 1000} s`}; stored ${stored.data?.verification ?? `HTTP ${stored.status}`}${stored.data?.verificationError ? ` (${stored.data.verificationError})` : ""}`,
        );
      }
      if (!live.open) throw new Error("follow-up: the /api/live stream closed");
    }
  } finally {
    await live.close();
  }
  if (latencies.length === 0) throw new Error(`follow-up: no delivery was verified (${problems[0] ?? "none sent"})`);
  const result: FollowUpResult = {
    deliveries,
    notAcknowledged,
    notVerified,
    timeoutMs,
    maxPauseMs,
    latencyMs: summarize(latencies),
    acknowledgeMs: summarize(acknowledge),
    problems: problems.slice(0, 5),
  };
  ctx.log(
    `follow-up: 200 → verified p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms over ${latencies.length}${notVerified + notAcknowledged ? `; ${notAcknowledged} not acknowledged, ${notVerified} not verified` : ""}`,
  );
  return result;
}

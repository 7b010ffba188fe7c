// Signs and POSTs payment events to the caller, retrying on failure and keeping every attempt for tests.
import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { TimerSet } from "./timers";

export interface WebhookAttempt {
  status?: number;
  error?: string;
  /** When the attempt began, and when its answer (or failure) came. */
  at: string;
  answeredAt: string;
}

export interface WebhookDelivery {
  url: string;
  body: string;
  signature: string;
  request_id: number;
  transaction_uuid: string;
  outcome: "pending" | "delivered" | "failed";
  attempts: WebhookAttempt[];
}

interface SenderOptions {
  apiKey: string;
  retryDelaysMs: readonly number[];
  timers: TimerSet;
  log: (line: string) => void;
  attemptTimeoutMs?: number;
}

type AttemptResult = { status: number } | { error: string };

export function signBody(apiKey: string, body: string): string {
  return createHmac("sha512", apiKey).update(body, "utf8").digest("hex");
}

export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly opts: SenderOptions) {}

  send(url: string, payload: object, ref: { requestId: number; transactionUuid: string }): WebhookDelivery {
    const body = JSON.stringify(payload);
    const delivery: WebhookDelivery = {
      url,
      body,
      signature: signBody(this.opts.apiKey, body),
      request_id: ref.requestId,
      transaction_uuid: ref.transactionUuid,
      outcome: "pending",
      attempts: [],
    };
    this.deliveries.push(delivery);
    void this.attempt(delivery, 0);
    return delivery;
  }

  close(): void {
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  private async attempt(delivery: WebhookDelivery, index: number): Promise<void> {
    const at = new Date().toISOString();
    const result = await this.post(delivery);
    if (this.opts.timers.closed) return;
    delivery.attempts.push({ ...result, at, answeredAt: new Date().toISOString() });
    const outcome = "status" in result ? `HTTP ${result.status}` : result.error;
    this.opts.log(`webhook ${delivery.transaction_uuid} → ${delivery.url} attempt ${index + 1}: ${outcome}`);
    if ("status" in result && result.status >= 200 && result.status < 300) {
      delivery.outcome = "delivered";
      return;
    }
    const wait = this.opts.retryDelaysMs[index];
    if (wait === undefined) {
      delivery.outcome = "failed";
      return;
    }
    this.opts.timers.later(wait, () => void this.attempt(delivery, index + 1));
  }

  private post(delivery: WebhookDelivery): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(delivery.url);
      } catch {
        resolve({ error: "invalid URL" });
        return;
      }
      const controller = new AbortController();
      this.inFlight.add(controller);
      const finish = (result: AttemptResult) => {
        this.inFlight.delete(controller);
        resolve(result);
      };
      const timeoutMs = this.opts.attemptTimeoutMs ?? 10_000;
      const client = url.protocol === "https:" ? https : http;
      const req = client.request(
        url,
        {
          method: "POST",
          agent: false,
          signal: controller.signal,
          timeout: timeoutMs,
          headers: {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(delivery.body)),
            "x-service-signature": delivery.signature,
            "user-agent": "fundboard-service-sandbox",
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => finish({ status: res.statusCode ?? 0 }));
          res.on("error", (error) => finish({ error: error.message }));
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on("error", (error) => finish({ error: error.message }));
      req.end(delivery.body);
    });
  }
}

import "server-only";

import { getConfig } from "@/lib/config";

import { getDb } from "@/lib/db";

import { spendServiceCall, type BudgetClass } from "./budget";
import { createServiceClient, type ServiceClient } from "./client";
import { ServiceError, type ServiceOperation } from "./errors";
import { processSingleton } from "@/lib/util/process-singleton";
import { sleep } from "@/lib/util/sleep";

export interface LastServiceCall {
  operation: string;
  ok: boolean;
  kind?: string;
  httpStatus?: number;
  durationMs: number;
  at: string;
}

interface ServiceState {
  /** For people: a create spends from the `send` class of the budget, a status or balance read from `read`. */
  client: ServiceClient;
  /** For jobs (the reconciler, payment follow-ups, campaign sends): no retries inside a call, every call `background`. */
  background: ServiceClient;
  last: LastServiceCall | null;
}

function build(): ServiceState {
  const config = getConfig();
  const service = { ...config.service, rateLimitPerMin: config.serviceRateLimitPerMin };
  let last: LastServiceCall | null = null;
  const common = {
    baseUrl: service.baseUrl,
    verifyBaseUrl: service.verifyBaseUrl,
    apiKey: service.apiKey,
    onCall: (r: { operation: string; ok: boolean; kind?: string; httpStatus?: number; durationMs: number; at: Date }) => {
      last = { operation: r.operation, ok: r.ok, kind: r.kind, httpStatus: r.httpStatus, durationMs: r.durationMs, at: r.at.toISOString() };
    },
  };
  const client = createServiceClient({ ...common, beforeApiCall: budgetGate(personClass, service.rateLimitPerMin) });
  const background = createServiceClient({ ...common, getRetries: 0, beforeApiCall: budgetGate(() => "background", service.rateLimitPerMin) });
  return {
    client,
    background,
    get last() {
      return last;
    },
  };
}

/** A person's call: creating a fund request is a send; anything else (a status, the balances) a read. */
function personClass(operation: ServiceOperation): BudgetClass {
  return operation === "create" ? "send" : "read";
}

// How long a call with no room waits for a slot before it is refused (DESIGN §9 "waits briefly"): a person
// at the form longest, a person reading a little (a burst of retries finds the next slot of its 10 s), a
// job not at all (its queue retries it). Table: docs/architecture.md "Pace and retry policies".
const WAIT_MS: Record<BudgetClass, number> = { send: 3_000, read: 2_000, background: 0 };

/** Refuses a call the deployment's shared budget has no room for in its class, with when to try again. */
function budgetGate(classOf: (operation: ServiceOperation) => BudgetClass, limitPerMinute: number): (operation: ServiceOperation) => Promise<void> {
  return async (operation) => {
    const budgetClass = classOf(operation);
    const deadline = Date.now() + WAIT_MS[budgetClass];
    for (;;) {
      const verdict = await spendServiceCall(await getDb(), budgetClass, limitPerMinute);
      if (verdict.ok) return;
      if (Date.now() + verdict.retryAfterMs > deadline)
        throw new ServiceError({
          kind: "rate_limited",
          operation,
          retryAfterMs: verdict.retryAfterMs,
          detail: `shared budget has no room for a ${budgetClass} call`,
          budgetRefused: true,
          budgetLimitPerMin: limitPerMinute,
        });
      await sleep(verdict.retryAfterMs);
    }
  };
}

function state(): ServiceState {
  return processSingleton("service", build);
}

/** The process's client for people (sends and reads, by operation), built once from the configuration. */
export function getService(): ServiceClient {
  return state().client;
}

/** The process's client for jobs: every call in the background class of the budget. */
export function getBackgroundService(): ServiceClient {
  return state().background;
}

/** The result of the most recent service call, for /api/health. */
export function lastServiceCall(): LastServiceCall | null {
  return state().last;
}

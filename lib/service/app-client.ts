import "server-only";

import { getConfig } from "@/lib/config";

import { getDb } from "@/lib/db";

import { spendServiceCall, type CallKind } from "./budget";
import { createServiceClient, type ServiceClient } from "./client";
import { ServiceError, type ServiceOperation } from "./errors";

export interface LastServiceCall {
  operation: string;
  ok: boolean;
  kind?: string;
  httpStatus?: number;
  durationMs: number;
  at: string;
}

interface ServiceState {
  client: ServiceClient;
  /** For jobs (the reconciler, payment follow-ups, campaign sends): no retries inside a call, the background share of the budget. */
  background: ServiceClient;
  last: LastServiceCall | null;
}

const KEY = Symbol.for("fundboard.service");
type Holder = { [KEY]?: ServiceState };

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
  const client = createServiceClient({ ...common, beforeApiCall: budgetGate("interactive", service.rateLimitPerMin) });
  const background = createServiceClient({ ...common, getRetries: 0, beforeApiCall: budgetGate("background", service.rateLimitPerMin) });
  return {
    client,
    background,
    get last() {
      return last;
    },
  };
}

/** Refuses a call the deployment's shared budget has no room for, with when to try again. */
function budgetGate(kind: CallKind, limitPerMinute: number): (operation: ServiceOperation) => Promise<void> {
  return async (operation) => {
    const verdict = await spendServiceCall(await getDb(), kind, limitPerMinute);
    if (!verdict.ok)
      throw new ServiceError({
        kind: "rate_limited",
        operation,
        retryAfterMs: verdict.retryAfterMs,
        detail: `shared ${kind} budget spent`,
        budgetRefused: true,
      });
  };
}

function state(): ServiceState {
  const g = globalThis as Holder;
  g[KEY] ??= build();
  return g[KEY];
}

/** The process's service client, built once from the configuration. */
export function getService(): ServiceClient {
  return state().client;
}

export function getBackgroundService(): ServiceClient {
  return state().background;
}

/** The result of the most recent service call, for /api/health. */
export function lastServiceCall(): LastServiceCall | null {
  return state().last;
}

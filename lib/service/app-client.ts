import "server-only";

import { getConfig } from "@/lib/config";

import { getDb } from "@/lib/db";

import { NO_HOLD, type BudgetClass, type BudgetHold } from "./budget";
import { budgetGate } from "./budget-gate";
import { createServiceClient, type ServiceClient } from "./client";
import type { ServiceOperation } from "./errors";
import { processSingleton } from "@/lib/util/process-singleton";

export interface LastServiceCall {
  operation: string;
  ok: boolean;
  kind?: string;
  httpStatus?: number;
  durationMs: number;
  at: string;
}

/** What a job's new sends must leave free for more important background work, asked before each send. */
export type SendHold = () => Promise<BudgetHold>;

interface ServiceState {
  /** For people: a create spends from the `send` class of the budget, a status or balance read from `read`. */
  client: ServiceClient;
  /** For jobs (the reconciler, payment follow-ups, campaign sends): no retries inside a call, every call `background`. */
  background: ServiceClient;
  /** For calls made for an API key (the business's own systems): every call `api`, a create as well as a read; retried as people's. */
  api: ServiceClient;
  /** For pay pages' calls (made by a job): no retries inside a call, every call `public`. */
  public: ServiceClient;
  last: LastServiceCall | null;
  /** Notes a call as the most recent, for /api/health. */
  record: (call: LastServiceCall) => void;
}

function serviceOptions(record: (call: LastServiceCall) => void) {
  const config = getConfig();
  const service = { ...config.service, rateLimitPerMin: config.serviceRateLimitPerMin };
  return {
    limit: service.rateLimitPerMin,
    common: {
      baseUrl: service.baseUrl,
      verifyBaseUrl: service.verifyBaseUrl,
      apiKey: service.apiKey,
      onCall: (r: { operation: string; ok: boolean; kind?: string; httpStatus?: number; durationMs: number; at: Date }) =>
        record({ operation: r.operation, ok: r.ok, kind: r.kind, httpStatus: r.httpStatus, durationMs: r.durationMs, at: r.at.toISOString() }),
    },
  };
}

function build(): ServiceState {
  let last: LastServiceCall | null = null;
  const record = (call: LastServiceCall) => {
    last = call;
  };
  const { limit, common } = serviceOptions(record);
  const client = createServiceClient({ ...common, beforeApiCall: budgetGate(getDb, personClass, limit) });
  const background = createServiceClient({ ...common, getRetries: 0, beforeApiCall: budgetGate(getDb, () => "background", limit) });
  const api = createServiceClient({ ...common, beforeApiCall: budgetGate(getDb, () => "api", limit) });
  const publicClient = createServiceClient({ ...common, getRetries: 0, beforeApiCall: budgetGate(getDb, () => "public", limit) });
  return {
    client,
    background,
    api,
    public: publicClient,
    record,
    get last() {
      return last;
    },
  };
}

/** A person's call: creating a fund request is a send; anything else (a status, the balances) a read. */
function personClass(operation: ServiceOperation): BudgetClass {
  return operation === "create" ? "send" : "read";
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

/**
 * The process's client for calls made for an API key: every call, a create as well as a read, in the `api` class
 * of the budget (after sends, before people's reads; at most half the limit: docs/architecture.md "The service budget").
 */
export function getApiService(): ServiceClient {
  return state().api;
}

/** The process's client for pay pages' calls (made by a job): every call `public`, at most a sixth of the limit, no retries inside a call. */
export function getPublicService(): ServiceClient {
  return state().public;
}

/**
 * A background client for a job that asks new people (campaign sends): each create first leaves free the slots
 * `hold` says more important background work is owed (docs/architecture.md "The service budget": confirmations, then status checks, then sends).
 */
export function getSendingService(hold: SendHold): ServiceClient {
  const { limit, common } = serviceOptions(state().record);
  return createServiceClient({
    ...common,
    getRetries: 0,
    beforeApiCall: budgetGate(
      getDb,
      () => "background",
      limit,
      (operation) => (operation === "create" ? hold() : Promise.resolve(NO_HOLD)),
    ),
  });
}

/** The result of the most recent service call, for /api/health. */
export function lastServiceCall(): LastServiceCall | null {
  return state().last;
}

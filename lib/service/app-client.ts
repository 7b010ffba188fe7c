import "server-only";

import { getConfig } from "@/lib/config";

import { createServiceClient, type ServiceClient } from "./client";

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
  /** For the reconciler, which paces and backs off itself: no retries inside a call. */
  background: ServiceClient;
  last: LastServiceCall | null;
}

const KEY = Symbol.for("fundboard.service");
type Holder = { [KEY]?: ServiceState };

function build(): ServiceState {
  const { service } = getConfig();
  let last: LastServiceCall | null = null;
  const common = {
    baseUrl: service.baseUrl,
    verifyBaseUrl: service.verifyBaseUrl,
    apiKey: service.apiKey,
    onCall: (r: { operation: string; ok: boolean; kind?: string; httpStatus?: number; durationMs: number; at: Date }) => {
      last = { operation: r.operation, ok: r.ok, kind: r.kind, httpStatus: r.httpStatus, durationMs: r.durationMs, at: r.at.toISOString() };
    },
  };
  const client = createServiceClient(common);
  const background = createServiceClient({ ...common, getRetries: 0 });
  return {
    client,
    background,
    get last() {
      return last;
    },
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

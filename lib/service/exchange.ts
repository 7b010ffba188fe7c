import "server-only";
import { BodyTooLargeError, readCappedText } from "@/lib/http/read-capped";
import { ServiceError, type ServiceErrorInit, type ServiceOperation } from "./errors";
import { parseRetryAfter } from "./retry";
import { envelopeHeadSchema } from "./schemas";

export interface ExchangeRequest {
  operation: ServiceOperation;
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  fetchImpl: typeof fetch;
}

export interface ExchangeResult {
  httpStatus: number;
  json: unknown;
}

// Failures where the request certainly never left this machine, so a create cannot have happened.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

const NOT_JSON = Symbol("not JSON");

/** One HTTP exchange, bounded in time and size; a 2xx JSON answer or a ServiceError. */
export async function exchange(req: ExchangeRequest): Promise<ExchangeResult> {
  const isCreate = req.operation === "create";
  const fail = (init: Omit<ServiceErrorInit, "operation">) => new ServiceError({ operation: req.operation, ...init });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no complete answer within ${req.timeoutMs} ms`));
  }, req.timeoutMs);
  const timeoutError = (httpStatus?: number) =>
    fail({ kind: "timeout", httpStatus, outcomeUnknown: isCreate, detail: `no complete answer within ${req.timeoutMs} ms` });

  try {
    let res: Response;
    try {
      res = await req.fetchImpl(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) throw timeoutError();
      const code = networkCode(error);
      throw fail({
        kind: "unreachable",
        outcomeUnknown: isCreate && !(code !== undefined && NOT_SENT_CODES.has(code)),
        detail: code ?? (error instanceof Error ? error.message : "network error"),
        cause: error,
      });
    }

    if (res.type === "opaqueredirect" || (res.status >= 300 && res.status < 400)) {
      controller.abort();
      throw fail({ kind: "bad_response", httpStatus: res.status, detail: "redirect not followed", issues: [`redirect (HTTP ${res.status}) not followed`] });
    }

    let text: string | undefined;
    try {
      text = await readCappedText(res, req.maxResponseBytes, controller.signal);
    } catch (error) {
      if (timedOut && res.ok) throw timeoutError(res.status);
      controller.abort();
      // An error status is reported by its status; only a 2xx needs its body.
      if (res.ok) throw bodyError(error, res.status, fail, isCreate, req.maxResponseBytes);
    }

    const json = text === undefined ? NOT_JSON : parseJson(text);
    if (!res.ok) throw statusError(res, json === NOT_JSON ? undefined : json, fail, isCreate);
    if (json === NOT_JSON) {
      throw fail({ kind: "bad_response", httpStatus: res.status, outcomeUnknown: isCreate, detail: "body is not JSON", issues: ["(body): not valid JSON"] });
    }
    return { httpStatus: res.status, json };
  } finally {
    clearTimeout(timer);
  }
}

type Fail = (init: Omit<ServiceErrorInit, "operation">) => ServiceError;

function bodyError(error: unknown, httpStatus: number, fail: Fail, isCreate: boolean, limit: number): ServiceError {
  if (error instanceof BodyTooLargeError) {
    return fail({
      kind: "bad_response",
      httpStatus,
      outcomeUnknown: isCreate,
      detail: "response too large",
      issues: [`(body): response too large (over ${limit} bytes)`],
    });
  }
  if (error instanceof TypeError && /decode|encoded/i.test(error.message)) {
    return fail({ kind: "bad_response", httpStatus, outcomeUnknown: isCreate, detail: "body is not UTF-8", issues: ["(body): not valid UTF-8"] });
  }
  // The connection broke after the status line: the service did answer, we just lost the rest.
  return fail({ kind: "unreachable", httpStatus, outcomeUnknown: isCreate, detail: "connection lost while reading the answer", cause: error });
}

function statusError(res: Response, json: unknown, fail: Fail, isCreate: boolean): ServiceError {
  const head = envelopeHeadSchema.safeParse(json);
  const serviceMessage = head.success ? head.data.message : undefined;
  const httpStatus = res.status;
  if (httpStatus === 401 || httpStatus === 403) return fail({ kind: "unauthorized", httpStatus, serviceMessage });
  if (httpStatus === 404) return fail({ kind: "not_found", httpStatus, serviceMessage });
  if (httpStatus === 429) {
    return fail({ kind: "rate_limited", httpStatus, serviceMessage, retryAfterMs: parseRetryAfter(res.headers.get("retry-after")) });
  }
  // A 5xx may come from a gateway after the service acted, so a create's outcome is unknown.
  if (httpStatus >= 500 && httpStatus < 600) return fail({ kind: "server_error", httpStatus, serviceMessage, outcomeUnknown: isCreate });
  if (httpStatus >= 400 && httpStatus < 500) return fail({ kind: "rejected", httpStatus, serviceMessage });
  return fail({ kind: "bad_response", httpStatus, serviceMessage, detail: "unexpected status", issues: [`(status): unexpected HTTP ${httpStatus}`] });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** The system error code (ECONNREFUSED, ENOTFOUND, …) undici hides in `cause`, possibly inside an AggregateError. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string") return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

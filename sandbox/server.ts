// Starts the simulated service: an API host (with the consumer page and control API), a separate verify host, and an
// SMTP sink whose mail the consumer app shows at /mail.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { apiRoutes } from "./api-routes";
import { consumerRoutes } from "./consumer-page";
import { controlRoutes } from "./control-routes";
import { DEV_API_KEY } from "@/lib/config/dev-key";
import { FaultTable } from "./faults";
import { HookInbox, hookRoutes } from "./hook-receiver";
import { listener, requestTarget, serveOpen, serveService, type ServiceGuards } from "./host-handlers";
import { mailPageRoutes } from "./mail-page";
import { startMailSink, type MailSink } from "./mail-sink";
import { Mailbox } from "./mailbox";
import { createRequestActions } from "./request-actions";
import { createStore } from "./state";
import { CallStats } from "./stats";
import { TimerSet } from "./timers";
import type { AmountUnit } from "./types";
import { verifyRoutes } from "./verify-routes";
import { WebhookSender } from "./webhook-sender";

export interface SandboxOptions {
  /** API host port; 0 = random free port; default 4010. */
  port?: number;
  /** Default port + 1; random if port is 0. */
  verifyPort?: number;
  /** The SMTP sink's port: default port + 2; random if port is 0. */
  smtpPort?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** Default DEV_API_KEY. */
  apiKey?: string;
  /** Unit of fund-request and payment amounts; default "major". */
  amountUnit?: AmountUnit;
  /** Overrides meta.notificationUrl if set. */
  webhookUrl?: string;
  /** Delay before accept.auto / decline.auto act; default 1000. */
  autoDelayMs?: number;
  /** Default [500, 1000, 2000, 4000, 8000]. */
  webhookRetryDelaysMs?: number[];
  /** Delay of the 'slow' fault; default 3000. */
  slowDelayMs?: number;
  log?: (line: string) => void;
  /** One log line per HTTP call (method, path, status, time); off by default so a start banner stays readable. */
  logCalls?: boolean;
}

export interface Sandbox {
  /** http://127.0.0.1:PORT */
  apiUrl: string;
  verifyUrl: string;
  /** smtp://127.0.0.1:PORT, the mail sink (no AUTH, no TLS). */
  smtpUrl: string;
  apiKey: string;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? DEFAULT_PORT;
  const verifyPort = opts.verifyPort ?? (port === 0 ? 0 : port + 1);
  const smtpPort = opts.smtpPort ?? (port === 0 ? 0 : port + 2);
  const apiKey = opts.apiKey ?? DEV_API_KEY;
  const unit = opts.amountUnit ?? "major";
  const log = opts.log ?? (() => {});
  if (apiKey === "") throw new Error("apiKey must not be empty");

  const timers = new TimerSet();
  const store = createStore();
  const stats = new CallStats();
  const faults = new FaultTable();
  const mailbox = new Mailbox();
  const hooks = new HookInbox();
  const sender = new WebhookSender({ apiKey, retryDelaysMs: opts.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, timers, log });
  let apiUrl = "";
  const actions = createRequestActions({
    store,
    unit,
    apiUrl: () => apiUrl,
    webhookUrl: opts.webhookUrl,
    sender,
    timers,
    autoDelayMs: opts.autoDelayMs ?? 1000,
    log,
  });

  const guards: ServiceGuards = { apiKey, stats, faults, timers, slowDelayMs: opts.slowDelayMs ?? 3000, log };
  const service = apiRoutes(store, actions, unit);
  const verify = verifyRoutes(store, unit);
  const control = [...controlRoutes({ store, actions, faults, stats, sender, mailbox, unit, apiUrl: () => apiUrl }), ...hookRoutes(hooks)];
  const consumer = [...consumerRoutes(store), ...mailPageRoutes(mailbox)];

  const apiServer = http.createServer(
    listener(
      "api",
      async (req, res) => {
        const { path } = requestTarget(req);
        if (path === "/sandbox" || path.startsWith("/sandbox/")) return serveOpen(control, log, req, res);
        if (path.startsWith("/api/")) return serveService(service, guards, req, res);
        return serveOpen(consumer, log, req, res);
      },
      log,
      opts.logCalls ?? false,
    ),
  );
  const verifyServer = http.createServer(
    listener(
      "verify",
      async (req, res) => {
        const { path } = requestTarget(req);
        if (path.startsWith("/api/")) return serveService(verify, guards, req, res);
        return serveOpen([], log, req, res);
      },
      log,
      opts.logCalls ?? false,
    ),
  );

  const apiPort = await listen(apiServer, port, host);
  let boundVerifyPort: number;
  let sink: MailSink;
  try {
    boundVerifyPort = await listen(verifyServer, verifyPort, host);
    sink = await startMailSink({ port: smtpPort, host, mailbox, log });
  } catch (error) {
    await Promise.all([shutDown(apiServer), shutDown(verifyServer)]);
    throw error;
  }
  apiUrl = urlFor(host, apiPort);
  const smtpUrl = urlFor(host, sink.port, "smtp");
  log(`sandbox listening: api ${apiUrl}, verify ${urlFor(host, boundVerifyPort)}, mail sink ${smtpUrl}`);

  let closing: Promise<void> | null = null;
  return {
    apiUrl,
    verifyUrl: urlFor(host, boundVerifyPort),
    smtpUrl,
    apiKey,
    close() {
      closing ??= (async () => {
        timers.clearAll();
        sender.close();
        await Promise.all([shutDown(apiServer), shutDown(verifyServer), sink.close()]);
      })();
      return closing;
    },
  };
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

// Held 'timeout' sockets and keep-alive connections would otherwise keep close() waiting.
function shutDown(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function urlFor(host: string, port: number, scheme = "http"): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `${scheme}://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

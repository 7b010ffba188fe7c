// The reference for the intake benchmark: a bare node:http server doing what the webhook route does up to the
// answer — the same capped read, the same signature check and the same insert (processDelivery) through lib/db,
// then the same work before the 200: the follow-up job stored (queueFollowUp, on a job engine with no workers) and
// the payment announced (the shared balance value dropped, the live events published, over Postgres's NOTIFY when
// on Postgres). Rejected deliveries go to the same per-process rejection log (processDelivery's default for the db).
// Run as its own process: tsx --conditions=react-server bench/bare-server.ts (env BARE_PORT, DATA_DIR or DATABASE_URL).
import http from "node:http";
import { Readable } from "node:stream";

import { openDatabase } from "@/lib/db/client";
import { startJobEngine, stopJobEngine } from "@/lib/jobs/engine";
import { startLiveListener } from "@/lib/live/listen";
import { safeErrorSummary } from "@/lib/log/safe-error";
import { dropBalanceAfterPayment } from "@/lib/payments/after-record";
import { queueFollowUp } from "@/lib/payments/follow-up.job";
import { JOBS } from "@/lib/server/workers";
import { setProcessSingleton } from "@/lib/util/process-singleton";
import { MAX_WEBHOOK_BYTES, processDelivery } from "@/lib/webhooks/intake";
import { readCapped } from "@/lib/http/read-capped";

const port = Number(process.env.BARE_PORT);
const apiKey = process.env.SERVICE_API_KEY ?? "";
const amountUnit = process.env.SERVICE_AMOUNT_UNIT === "minor" ? "minor" : "major";
const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR;
if (!Number.isInteger(port) || !apiKey || !(databaseUrl || dataDir)) {
  console.error("bare-server: set BARE_PORT, SERVICE_API_KEY and DATA_DIR or DATABASE_URL");
  process.exit(2);
}

const database = await openDatabase(databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: dataDir ?? "" });
const deps = { db: database.db, apiKey, amountUnit } as const;
// lib/db's process database is this one (the balance drop reads it there), as in the dashboard.
setProcessSingleton("database", Promise.resolve(database));
await startLiveListener(database, databaseUrl ?? null, () => undefined).ready;
// The queues exist and inserts land; no workers, so the jobs wait (the route's cost before its 200 is the insert).
await startJobEngine(database, databaseUrl ?? null, JOBS);

function toRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
  return new Request(`http://127.0.0.1:${port}${req.url ?? "/"}`, { method: req.method, headers, body, duplex: "half" } as RequestInit);
}

function answer(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ status: status === 200, message, data: {} });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/health") return answer(res, 200, "OK");
  if (req.method !== "POST" || req.url !== "/api/webhooks/peer-transfer") return answer(res, 404, "Not found");
  const request = toRequest(req);
  readCapped(request, MAX_WEBHOOK_BYTES)
    .then((read) =>
      processDelivery(deps, {
        raw: read.ok ? read.bytes : null,
        signature: request.headers.get("x-service-signature"),
        contentType: request.headers.get("content-type"),
        remoteAddr: req.socket.remoteAddress ?? null,
      }),
    )
    .then(async (result) => {
      await Promise.all([result.paymentUuid ? queueFollowUp(result.paymentUuid) : null, result.recordedUuid ? dropBalanceAfterPayment() : null]);
      return result;
    })
    .then(
      (result) => answer(res, result.status, result.message),
      (error: unknown) => {
        console.error(`bare-server: delivery failed: ${safeErrorSummary(error)}`);
        answer(res, 500, "The delivery could not be processed; please retry.");
      },
    );
});

server.keepAliveTimeout = 5_000;
server.listen(port, () => console.log(`bare-server listening on ${port} (${database.kind})`));

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  stopJobEngine()
    .catch(() => undefined)
    .then(() => database.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

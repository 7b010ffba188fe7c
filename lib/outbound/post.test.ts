// One delivery attempt against real local servers: answers, caps, redirects, timeouts, refusals at connect time.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { AddressMode } from "./address-policy";
import { postDelivery, type PostOutcome } from "./post";

const LIVE: AddressMode = { sandbox: false, allowPrivate: false };
const SANDBOX: AddressMode = { sandbox: true, allowPrivate: false };

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
let port: number;
let seen: Seen[] = [];
let connections = 0;
let closedSockets = 0;

/** Each path is one kind of receiver. */
function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  switch (path) {
    case "/ok":
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received: body.length }));
      return;
    case "/huge":
      // 1 MiB answer.
      res.writeHead(200, { "content-type": "text/plain" }).end("a".repeat(1024 * 1024));
      return;
    case "/endless": {
      // Never ends: a chunk every few milliseconds until the client goes away.
      res.writeHead(200, { "content-type": "text/plain" });
      const tick = setInterval(() => res.write("b".repeat(1024)), 2);
      res.on("close", () => clearInterval(tick));
      return;
    }
    case "/multibyte":
      // 4095 ASCII bytes then "₦" (3 bytes): the 4 KiB excerpt ends inside the character.
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`${"c".repeat(4095)}₦ and more`);
      return;
    case "/redirect":
      res.writeHead(302, { location: `${base}/ok` }).end("moved");
      return;
    case "/busy":
      res.writeHead(503, { "retry-after": "120" }).end("try later");
      return;
    case "/gone":
      res.writeHead(410).end();
      return;
    case "/silent":
      // Reads the request and never answers.
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      answer(req, res, body);
    });
  });
  server.on("connection", (socket) => {
    connections += 1;
    socket.on("close", () => (closedSockets += 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  connections = 0;
  closedSockets = 0;
});

const BODY = JSON.stringify({ id: "evt_1", type: "payment.received" });

function post(url: string, mode: AddressMode = SANDBOX, extra: { timeoutMs?: number; headers?: Record<string, string> } = {}): Promise<PostOutcome> {
  return postDelivery({ url, headers: extra.headers ?? { "webhook-id": "evt_1" }, body: BODY, mode, timeoutMs: extra.timeoutMs });
}

function answered(outcome: PostOutcome): Extract<PostOutcome, { kind: "answered" }> {
  if (outcome.kind !== "answered") throw new Error(`expected an answer, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("postDelivery", () => {
  it("POSTs the body and headers once and reports a 2xx answer", async () => {
    const outcome = answered(await post(`${base}/ok?from=test`, SANDBOX, { headers: { "Webhook-Id": "evt_1", "webhook-signature": "v1,abc" } }));
    expect(outcome).toMatchObject({ kind: "answered", status: 200, retryAfter: null, bodyExcerpt: JSON.stringify({ received: BODY.length }) });
    expect(outcome.headers["content-type"]).toBe("application/json");
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/ok?from=test", body: BODY });
    expect(seen[0]?.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(BODY)),
      "webhook-id": "evt_1",
      "webhook-signature": "v1,abc",
      "user-agent": "Fundboard-Webhooks/1.0",
      host: `127.0.0.1:${port}`,
    });
  });

  it("keeps only the first 4 KiB of a 1 MiB answer", async () => {
    const outcome = answered(await post(`${base}/huge`));
    expect(outcome.status).toBe(200);
    expect(outcome.bodyExcerpt).toBe("a".repeat(4096));
  });

  it("stops reading an endless answer after 4 KiB and drops the connection", async () => {
    const outcome = answered(await post(`${base}/endless`, SANDBOX, { timeoutMs: 5_000 }));
    expect(outcome.bodyExcerpt).toBe("b".repeat(4096));
    expect(outcome.durationMs).toBeLessThan(4_000);
    await until(() => closedSockets === connections && connections === 1, "the server to see the connection closed");
  });

  it("never cuts a UTF-8 character in half at the end of the excerpt", async () => {
    const outcome = answered(await post(`${base}/multibyte`));
    expect(outcome.bodyExcerpt).toBe("c".repeat(4095));
  });

  it("does not follow a redirect: a 302 is the answer", async () => {
    const outcome = answered(await post(`${base}/redirect`));
    expect(outcome.status).toBe(302);
    expect(outcome.headers.location).toBe(`${base}/ok`);
    expect(outcome.bodyExcerpt).toBe("moved");
    expect(seen.map((s) => s.url)).toEqual(["/redirect"]);
  });

  it("surfaces Retry-After and other statuses as answers", async () => {
    expect(answered(await post(`${base}/busy`))).toMatchObject({ status: 503, retryAfter: "120", bodyExcerpt: "try later" });
    expect(answered(await post(`${base}/gone`))).toMatchObject({ status: 410, retryAfter: null, bodyExcerpt: "" });
  });

  it("fails with a one-line reason when the receiver never answers within the timeout", async () => {
    const outcome = await post(`${base}/silent`, SANDBOX, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: "failed", reason: `No answer from 127.0.0.1 within 0.3 s.` });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });

  it("fails when nothing listens on the port", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await post(`http://127.0.0.1:${closedPort}/ok`);
    expect(outcome).toMatchObject({ kind: "failed", reason: "Connection refused by 127.0.0.1 (ECONNREFUSED)." });
  });

  it("fails when the name does not resolve", async () => {
    const outcome = await post("http://no-such-host.invalid/hooks");
    expect(outcome.kind).toBe("failed");
    if (outcome.kind === "failed") expect(outcome.reason).toMatch(/^Could not resolve no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)\.$/);
  });

  it("refuses localhost in live mode at connect time: no connection, no request", async () => {
    const outcome = await post(`http://localhost:${port}/ok`, LIVE);
    expect(outcome).toMatchObject({ kind: "refused" });
    if (outcome.kind === "refused") {
      expect(outcome.reason).toMatch(/^localhost resolves to (127\.0\.0\.1|::1): .* is a loopback address \(this machine\); webhooks are only sent to public/);
    }
    // Give a stray connection time to show up before saying none came.
    await new Promise((r) => setTimeout(r, 50));
    expect(connections).toBe(0);
    expect(seen).toEqual([]);
  });

  it("sends to localhost in sandbox mode, and with WEBHOOK_ALLOW_PRIVATE in live mode", async () => {
    expect(answered(await post(`http://localhost:${port}/ok`, SANDBOX)).status).toBe(200);
    expect(answered(await post(`http://localhost:${port}/ok`, { sandbox: false, allowPrivate: true })).status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it("refuses an IP literal that is not allowed before connecting", async () => {
    for (const url of [`http://127.0.0.1:${port}/ok`, `http://2130706433:${port}/ok`, `http://[::ffff:127.0.0.1]:${port}/ok`]) {
      const outcome = await post(url, LIVE);
      expect(outcome).toMatchObject({ kind: "refused" });
      if (outcome.kind === "refused") expect(outcome.reason).toMatch(/is a loopback address/);
    }
    const metadata = await post("http://169.254.169.254/latest/meta-data/", SANDBOX);
    expect(metadata).toMatchObject({ kind: "refused", reason: "169.254.169.254 is a cloud metadata service address; webhooks are never sent there." });
    expect(connections).toBe(0);
  });

  it("refuses what is not an http(s) URL without throwing", async () => {
    expect(await post("not a url")).toMatchObject({ kind: "refused", reason: "The endpoint URL is not a valid URL." });
    expect(await post("ftp://127.0.0.1/x")).toMatchObject({ kind: "refused" });
    expect(await post(`http://u:p@127.0.0.1:${port}/ok`)).toMatchObject({ kind: "refused" });
  });
});

// The sandbox's webhook receiver over real HTTP: POST /sandbox/hooks/:name records, GET lists newest first,
// ?status= answers that status, DELETE empties one receiver; plus the inbox's caps.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { newWebhookSecret } from "@/lib/outbound/secret";
import { postDelivery } from "@/lib/outbound/post";
import { signDelivery } from "@/lib/outbound/sign";
import { startTestSandbox } from "@/tests/support/sandbox";

import { HOOK_BODY_LIMIT_BYTES, HookInbox, type ReceivedHook } from "./hook-receiver";
import type { Sandbox } from "./server";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** Unique per test, so the shared sandbox's receivers never mix two tests' deliveries. */
const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

async function list(name: string): Promise<ReceivedHook[]> {
  const res = await fetch(`${sandbox.apiUrl}/sandbox/hooks/${name}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ReceivedHook[];
}

async function send(name: string, body: string, query = ""): Promise<Response> {
  return fetch(`${sandbox.apiUrl}/sandbox/hooks/${name}${query}`, { method: "POST", headers: { "content-type": "application/json", "x-extra": "yes" }, body });
}

describe("the sandbox's webhook receiver", () => {
  it("records each delivery with its headers and body and lists them newest first", async () => {
    const name = unique("erp");
    const first = await send(name, '{"n":1}');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true });
    await send(name, '{"n":2}');
    await send(name, "not json at all");

    const received = await list(name);
    expect(received.map((h) => h.body)).toEqual(["not json at all", '{"n":2}', '{"n":1}']);
    expect(received[2]).toEqual({
      id: expect.any(String),
      name,
      method: "POST",
      headers: expect.objectContaining({ "content-type": "application/json", "x-extra": "yes", "content-length": "7" }),
      body: '{"n":1}',
      status: 200,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    // Another name is another receiver.
    expect(await list(unique("other"))).toEqual([]);
  });

  it("answers the status ?status= names, still recording", async () => {
    const name = unique("flaky");
    const gone = await send(name, "{}", "?status=410");
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ ok: false });
    expect((await send(name, "{}", "?status=500")).status).toBe(500);
    expect((await send(name, "{}", "?status=204")).status).toBe(204);
    expect((await list(name)).map((h) => h.status)).toEqual([204, 500, 410]);

    for (const bad of ["?status=199", "?status=600", "?status=abc", "?status=2e2"]) {
      const res = await send(name, "{}", bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("status must be a whole number from 200 to 599");
    }
    expect(await list(name)).toHaveLength(3);
  });

  it("takes a signed delivery from postDelivery in sandbox mode, exactly as sent", async () => {
    const name = unique("signed");
    const body = JSON.stringify({ id: "evt_9", type: "payment.received" });
    const headers = signDelivery({ id: "evt_9", timestamp: new Date(), body, secrets: [newWebhookSecret()] });
    const outcome = await postDelivery({
      url: `${sandbox.apiUrl}/sandbox/hooks/${name}?status=503`,
      headers,
      body,
      mode: { sandbox: true, allowPrivate: false },
    });
    expect(outcome).toMatchObject({ kind: "answered", status: 503, bodyExcerpt: '{"ok":false}' });
    const [hook] = await list(name);
    expect(hook?.body).toBe(body);
    expect(hook?.headers).toMatchObject(headers);
  });

  it("empties one receiver on DELETE, leaving the others", async () => {
    const [a, b] = [unique("a"), unique("b")];
    await send(a, "1");
    await send(b, "2");
    const res = await fetch(`${sandbox.apiUrl}/sandbox/hooks/${a}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { removed: number } }).data.removed).toBe(1);
    expect(await list(a)).toEqual([]);
    expect((await list(b)).map((h) => h.body)).toEqual(["2"]);
  });

  it("refuses a bad name and a body over the limit", async () => {
    expect((await send("bad%20name", "{}")).status).toBe(400);
    const big = await send(unique("big"), "x".repeat(HOOK_BODY_LIMIT_BYTES + 1));
    expect(big.status).toBe(413);
    // A body just under the limit is kept whole.
    const name = unique("large");
    expect((await send(name, "y".repeat(HOOK_BODY_LIMIT_BYTES))).status).toBe(200);
    expect((await list(name))[0]?.body).toHaveLength(HOOK_BODY_LIMIT_BYTES);
  });
});

describe("HookInbox", () => {
  const entry = (name: string, body: string) => ({ name, method: "POST", headers: {}, body, status: 200, at: new Date().toISOString() });

  it("keeps at most the cap per name, dropping the oldest", () => {
    const inbox = new HookInbox(3, 100);
    for (let i = 1; i <= 5; i++) inbox.record(entry("a", String(i)));
    inbox.record(entry("b", "x"));
    expect(inbox.list("a").map((h) => h.body)).toEqual(["5", "4", "3"]);
    expect(inbox.size).toBe(4);
  });

  it("keeps at most the cap over all names, dropping the oldest wherever it is", () => {
    const inbox = new HookInbox(10, 4);
    inbox.record(entry("a", "a1"));
    inbox.record(entry("b", "b1"));
    inbox.record(entry("a", "a2"));
    inbox.record(entry("b", "b2"));
    inbox.record(entry("c", "c1"));
    expect(inbox.list("a").map((h) => h.body)).toEqual(["a2"]);
    inbox.record(entry("c", "c2"));
    expect(inbox.list("b").map((h) => h.body)).toEqual(["b2"]);
    expect(inbox.size).toBe(4);
    expect(inbox.clear("c")).toBe(2);
    inbox.record(entry("d", "d1"));
    expect(inbox.size).toBe(3);
    expect(inbox.list("a").map((h) => h.body)).toEqual(["a2"]);
  });
});

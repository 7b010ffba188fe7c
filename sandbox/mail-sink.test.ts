// The sandbox's SMTP sink and its mailbox: real SMTP from nodemailer in, GET /sandbox/mail and the consumer app's /mail out.
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { freePortRun, isListening } from "@/tests/support/ports";
import { startTestSandbox } from "@/tests/support/sandbox";

import { Mailbox } from "./mailbox";
import { MAIL_SIZE_LIMIT_BYTES } from "./mail-sink";
import { startSandbox, type Sandbox } from "./server";

interface Listed {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  at: string;
}

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

/** One message through a real SMTP conversation; resolves with the sink's reply. */
async function send(
  to: string | string[],
  subject: string,
  body: { html?: string; text?: string } = { text: "Hello" },
  on: Sandbox = sandbox,
): Promise<string> {
  const transport = nodemailer.createTransport({ url: on.smtpUrl });
  try {
    const info = await transport.sendMail({ from: "Fundboard <fundboard@localhost>", to, subject, ...body });
    return info.response;
  } finally {
    transport.close();
  }
}

async function mail(query = "", on: Sandbox = sandbox): Promise<Listed[]> {
  const res = await fetch(`${on.apiUrl}/sandbox/mail${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Listed[];
}

/** Unique per test, so the shared sandbox's mailbox never mixes two tests' messages. */
const unique = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.test`;

describe("the sandbox's SMTP sink", () => {
  it("keeps each message for GET /sandbox/mail: ?to= is case-insensitive, newest first, one entry per recipient", async () => {
    const ada = unique("ada");
    const bola = unique("bola");
    expect(await send(ada.toUpperCase(), "First", { text: "one", html: "<p>one</p>" })).toMatch(/^250 /);
    await send(ada, "Second", { text: "two" });
    await send([ada, bola], "To both", { text: "both" });

    const adas = await mail(`?to=${encodeURIComponent(` ${ada.replace("ada", "AdA")} `)}`);
    expect(adas.map((m) => m.subject)).toEqual(["To both", "Second", "First"]);
    expect(adas[2]).toEqual({
      id: expect.any(String),
      // As the envelope named it (nodemailer writes the domain in lower case).
      to: ada.replace(/^[^@]+/, (local) => local.toUpperCase()),
      from: "Fundboard <fundboard@localhost>",
      subject: "First",
      text: "one",
      html: "<p>one</p>",
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(adas[1]?.html).toBeNull();
    expect(Date.parse(adas[0]?.at ?? "")).toBeGreaterThanOrEqual(Date.parse(adas[2]?.at ?? ""));

    expect((await mail(`?to=${encodeURIComponent(bola)}`)).map((m) => [m.to, m.subject])).toEqual([[bola, "To both"]]);
    // Without ?to= every message is listed, newest first.
    const all = (await mail()).filter((m) => m.to.toLowerCase() === ada || m.to === bola);
    expect(all.map((m) => m.subject)).toEqual(["To both", "To both", "Second", "First"]);
    expect(new Set(all.map((m) => m.id)).size).toBe(4);
  });

  it("empties on DELETE /sandbox/mail", async () => {
    // A sandbox of its own: the other tests' messages live on the shared one.
    const own = await startTestSandbox();
    try {
      await send("someone@example.test", "Kept until emptied", { text: "x" }, own);
      expect(await mail("", own)).toHaveLength(1);
      const res = await fetch(`${own.apiUrl}/sandbox/mail`, { method: "DELETE" });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: true });
      expect(await mail("", own)).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it(`refuses a message over ${MAIL_SIZE_LIMIT_BYTES} bytes with 552 and keeps nothing`, async () => {
    const to = unique("big");
    const refused = await send(to, "Too big", { text: "x".repeat(MAIL_SIZE_LIMIT_BYTES + 1024) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ responseCode: 552 });
    expect(await mail(`?to=${encodeURIComponent(to)}`)).toEqual([]);
  });

  it("listens on the API port + 2 unless told, and stops listening on close even with a client still connected", async () => {
    const port = await freePortRun(3);
    const own = await startSandbox({ port, log: () => {} });
    expect(own.smtpUrl).toBe(`smtp://127.0.0.1:${port + 2}`);
    expect(await isListening(port + 2)).toBe(true);
    // A pooled client keeps its connection open after sending; close() must not wait for it to leave.
    const pooled = nodemailer.createTransport({ url: own.smtpUrl, pool: true });
    try {
      await pooled.sendMail({ from: "a@example.test", to: "b@example.test", subject: "kept open", text: "x" });
      const started = Date.now();
      await own.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await isListening(port + 2)).toBe(false);
    } finally {
      pooled.close();
    }
  });
});

describe("the consumer app's mailbox at /mail", () => {
  const hostile = `<p onclick="alert(1)">Hi</p><script>window.pwned = 1</script><img src="x" onerror="alert(2)"><a href="https://dash.example.test/payments?a=1&amp;b=2">Open</a><a href="javascript:alert(3)">Not a link</a>`;

  it("lists the messages, finds one recipient's, and says when there are none", async () => {
    const to = unique("list");
    await send(to, "Your <b>digest</b>", { html: hostile, text: "Open https://dash.example.test/payments" });
    const res = await fetch(`${sandbox.apiUrl}/mail?to=${encodeURIComponent(to.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toMatch(/<html lang="en">/);
    expect(page).toMatch(/<h1>Mailbox<\/h1>/);
    expect(page).toContain(`<td>${to}</td>`);
    const [, id] = /<a href="\/mail\/(\d+)">Your &lt;b&gt;digest&lt;\/b&gt;<\/a>/.exec(page) ?? [];
    expect(id).toBeDefined();
    expect(page).not.toContain("<b>digest");

    const none = await (await fetch(`${sandbox.apiUrl}/mail?to=${encodeURIComponent(unique("nobody"))}`)).text();
    expect(none).toMatch(/No messages to nobody\.[^<\s]+@example\.test\./);
  });

  it("shows a message's HTML only escaped into a frame that runs no script, with its links and text outside", async () => {
    const to = unique("show");
    await send(to, "Payment received", { html: hostile, text: "Open <https://dash.example.test/payments>" });
    const [listed] = await mail(`?to=${encodeURIComponent(to)}`);
    const res = await fetch(`${sandbox.apiUrl}/mail/${listed?.id ?? ""}`);
    expect(res.status).toBe(200);
    // Inherited by the srcdoc frame: no script runs in the page or the message, whatever the markup says.
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'none'/);
    const page = await res.text();

    const frames = [...page.matchAll(/<iframe ([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatch(/^sandbox="" /);
    const srcdoc = /srcdoc="([^"]*)"/.exec(frames[0] ?? "")?.[1];
    expect(srcdoc).toBeDefined();
    // The attribute holds the message exactly, once its escaping is undone: nothing of it reaches the page as markup.
    const unescaped = (srcdoc ?? "")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    expect(unescaped).toBe(listed?.html);
    expect(page.replace(/srcdoc="[^"]*"/, "")).not.toMatch(/<script|onerror|onclick|alert\(/i);

    // Links to follow, http(s) only, outside the frame; the text part as text.
    expect(page).toContain(`<a href="https://dash.example.test/payments?a=1&amp;b=2" rel="noreferrer">`);
    expect(page).not.toContain('href="javascript:');
    expect(page).toContain("<pre>Open &lt;https://dash.example.test/payments&gt;</pre>");
    expect(page).toContain(`<dd>${to}</dd>`);
  });

  it("answers 404 for a message it does not have", async () => {
    const res = await fetch(`${sandbox.apiUrl}/mail/999999`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: false, message: expect.stringMatching(/No message 999999/) });
  });

  it("is linked from the consumer page", async () => {
    expect(await (await fetch(`${sandbox.apiUrl}/`)).text()).toContain('<a href="/mail">mailbox</a>');
  });
});

describe("Mailbox", () => {
  it("keeps the newest messages up to its cap", () => {
    const box = new Mailbox(3);
    for (const n of [1, 2, 3, 4]) box.deliver([`p${n}@example.test`], { from: "f@example.test", subject: `m${n}`, text: "", html: null });
    box.deliver(["a@example.test", "b@example.test"], { from: "f@example.test", subject: "m5", text: "", html: null });
    expect(box.list().map((m) => `${m.subject} ${m.to}`)).toEqual(["m5 b@example.test", "m5 a@example.test", "m4 p4@example.test"]);
    expect(box.get(box.list()[2]?.id ?? "")?.subject).toBe("m4");
  });
});

// lib/mail/transport.ts against real SMTP servers on this machine: what a server accepts arrives whole, and each way of
// failing becomes a MailError that says rightly whether to try again. No mocks: nodemailer talks to smtp-server.
import { spawn } from "node:child_process";
import net from "node:net";
import { createInterface } from "node:readline";
import type { AddressInfo } from "node:net";

import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { afterAll, afterEach, describe, expect, it } from "vitest";

import { dropProcessSingleton } from "@/lib/util/process-singleton";
import { freePortRun } from "@/tests/support/ports";

import { MailError, toMailError } from "./errors";
import { closeMailTransport, createMailTransport, mailEnabled, sendMail, type MailTransport } from "./transport";

const FROM = "Fundboard <fundboard@localhost>";
const PASSWORD = "s3cret-Pa55word";

interface Sink {
  port: number;
  received: ParsedMail[];
  close(): Promise<void>;
}

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** An SMTP server on a free port that keeps what it is sent; `options` can make it refuse. */
async function startSink(options: Partial<SMTPServerOptions> = {}): Promise<Sink> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback(null, "Kept");
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const sink = {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  open.push(sink);
  return sink;
}

function transport(url: string, timeouts?: Parameters<typeof createMailTransport>[1]["timeouts"]): MailTransport {
  const made = createMailTransport(url, { from: FROM, timeouts });
  open.push(made);
  return made;
}

const MESSAGE = { to: "ada@example.test", subject: "Payment received", html: "<p>₦1,500.00 from Ada</p>", text: "₦1,500.00 from Ada" };

async function failure(promise: Promise<unknown>): Promise<MailError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the send to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MailError);
  return error as MailError;
}

function refuse(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

describe("createMailTransport", () => {
  it("delivers the message whole: sender, recipient, subject, both parts and extra headers", async () => {
    const sink = await startSink();
    const sent = await transport(`smtp://127.0.0.1:${sink.port}`).send({ ...MESSAGE, headers: { "X-Fundboard-Event": "payment.received 42" } });
    expect(sent.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
    expect(sent.response).toMatch(/^250 /);
    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail?.from?.value).toEqual([{ name: "Fundboard", address: "fundboard@localhost" }]);
    expect(mail?.to).toMatchObject({ value: [{ address: "ada@example.test" }] });
    expect(mail?.subject).toBe("Payment received");
    expect(mail?.html).toBe("<p>₦1,500.00 from Ada</p>");
    expect(mail?.text?.trim()).toBe("₦1,500.00 from Ada");
    expect(mail?.messageId).toBe(sent.messageId);
    expect(mail?.headers.get("x-fundboard-event")).toBe("payment.received 42");
  });

  it("sends a Message-ID given in the headers as the message's own, so a retried message keeps its id", async () => {
    const sink = await startSink();
    const mailer = transport(`smtp://127.0.0.1:${sink.port}`);
    const sent = await mailer.send({ ...MESSAGE, headers: { "Message-ID": "<notification-7@fundboard>" } });
    await mailer.send({ ...MESSAGE, headers: { "Message-ID": "<notification-7@fundboard>" } });
    expect(sent.messageId).toBe("<notification-7@fundboard>");
    expect(sink.received.map((m) => m.messageId)).toEqual(["<notification-7@fundboard>", "<notification-7@fundboard>"]);
  });

  it("logs in with the URL's credentials and sends over the same pooled connection again", async () => {
    const logins: string[] = [];
    const connections: string[] = [];
    const sink = await startSink({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username ?? ""}:${auth.password ?? ""}`);
        callback(null, { user: auth.username });
      },
      onConnect(session, callback) {
        connections.push(session.id);
        callback();
      },
    });
    const mailer = transport(`smtp://fundboard:${encodeURIComponent(PASSWORD)}@127.0.0.1:${sink.port}`);
    await mailer.send(MESSAGE);
    await mailer.send({ ...MESSAGE, subject: "Second" });
    expect(sink.received.map((m) => m.subject)).toEqual(["Payment received", "Second"]);
    expect(logins).toEqual([`fundboard:${PASSWORD}`]);
    expect(connections).toHaveLength(1);
  });

  it("throws a transient MailError when nothing listens, without the password in its message", async () => {
    const port = await freePortRun();
    const error = await failure(transport(`smtp://fundboard:${PASSWORD}@127.0.0.1:${port}`).send(MESSAGE));
    expect(error).toMatchObject({ permanent: false, failure: "unreachable" });
    expect(error.message).toMatch(/^e-mail not sent, unreachable: /);
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toMatch(/\n|\bat .*:\d+:\d+/);
  });

  it("throws a transient MailError when the server never greets, after the greeting timeout", async () => {
    // Accepts the connection and says nothing, as a wedged server would.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    open.push({
      close: () =>
        new Promise<void>((resolve) => {
          silent.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        }),
    });
    const port = (silent.address() as AddressInfo).port;
    const started = Date.now();
    const error = await failure(transport(`smtp://127.0.0.1:${port}`, { greetingTimeout: 300 }).send(MESSAGE));
    expect(error).toMatchObject({ permanent: false, failure: "timeout", code: "ETIMEDOUT" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("throws a permanent MailError when the server refuses the recipient with 550", async () => {
    const sink = await startSink({
      onRcptTo(address, _session, callback) {
        callback(refuse(550, `5.1.1 <${address.address}>: no such mailbox`));
      },
    });
    const error = await failure(transport(`smtp://127.0.0.1:${sink.port}`).send(MESSAGE));
    expect(error).toMatchObject({ permanent: true, failure: "rejected", responseCode: 550 });
    expect(error.message).toContain("no such mailbox");
    expect(sink.received).toEqual([]);
  });

  it("throws a transient MailError when the server defers the recipient with 450", async () => {
    const sink = await startSink({
      onRcptTo(_address, _session, callback) {
        callback(refuse(450, "4.2.1 mailbox busy, try later"));
      },
    });
    const error = await failure(transport(`smtp://127.0.0.1:${sink.port}`).send(MESSAGE));
    expect(error).toMatchObject({ permanent: false, failure: "rejected", responseCode: 450 });
  });

  it("throws a permanent MailError when the server refuses the message itself with 554", async () => {
    const sink = await startSink({
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback(refuse(554, "5.7.1 message refused as spam")));
      },
    });
    const error = await failure(transport(`smtp://127.0.0.1:${sink.port}`).send(MESSAGE));
    expect(error).toMatchObject({ permanent: true, failure: "rejected", responseCode: 554 });
  });

  it("throws a transient MailError, not a permanent one, when the server refuses the login, and never shows the password", async () => {
    const sink = await startSink({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(_auth, _session, callback) {
        callback(refuse(535, `5.7.8 Authentication failed for password ${PASSWORD}`));
      },
    });
    const error = await failure(transport(`smtp://fundboard:${encodeURIComponent(PASSWORD)}@127.0.0.1:${sink.port}`).send(MESSAGE));
    expect(error).toMatchObject({ permanent: false, failure: "auth", responseCode: 535 });
    expect(error.message).toContain("***");
    expect(error.message).not.toContain(PASSWORD);
  });
});

/** An SMTP server in a child process, so it answers while this test's thread is busy; prints when it accepts a message. */
async function startChildSink(): Promise<{ port: number; acceptedAt: Promise<number>; close(): void }> {
  const script = `
    const { SMTPServer } = require("smtp-server");
    const server = new SMTPServer({ authOptional: true, disabledCommands: ["AUTH", "STARTTLS"], logger: false, disableReverseLookup: true,
      onData(stream, _s, done) { stream.resume(); stream.on("end", () => { console.log(JSON.stringify({ acceptedAt: Date.now() })); done(); }); } });
    server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.server.address().port })));`;
  const child = spawn(process.execPath, ["-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const said = (key: "port" | "acceptedAt") =>
    new Promise<number>((resolve) => {
      lines.on("line", (line) => {
        const value = (JSON.parse(line) as Record<string, number>)[key];
        if (value !== undefined) resolve(value);
      });
    });
  const port = await said("port");
  return { port, acceptedAt: said("acceptedAt"), close: () => child.kill() };
}

describe("createMailTransport's own thread", () => {
  it("carries a message through its SMTP exchange while the server's thread is busy", async () => {
    const sink = await startChildSink();
    open.push(sink);
    const transport = createMailTransport(`smtp://127.0.0.1:${sink.port}`, { from: FROM });
    open.push(transport);
    const sent = transport.send({ to: "busy@example.test", subject: "While busy", html: "<p>Hi</p>", text: "Hi" });
    // This thread runs without a break for 1.5 s, as a server's thread does under a burst of work.
    const busyUntil = Date.now() + 1_500;
    while (Date.now() < busyUntil) {
      // Nothing of this thread's event loop runs meanwhile.
    }
    await sent;
    // The connection, greeting, envelope and message all went back and forth while this thread was busy.
    expect(await sink.acceptedAt).toBeLessThan(busyUntil);
  });
});

describe("toMailError", () => {
  it.each([
    [{ code: "EENVELOPE", responseCode: 553 }, "rejected", true],
    [{ code: "EMESSAGE", responseCode: 552 }, "rejected", true],
    [{ code: "EENVELOPE", responseCode: 503 }, "rejected", false],
    [{ code: "EENVELOPE", responseCode: 421 }, "rejected", false],
    [{ code: "EENVELOPE" }, "rejected", true],
    [{ code: "ECONNECTION" }, "unreachable", false],
    [{ code: "ESOCKET" }, "unreachable", false],
    [{ code: "EDNS" }, "unreachable", false],
    [{ code: "ETIMEDOUT" }, "timeout", false],
    [{ code: "ENOAUTH" }, "auth", false],
    [{}, "failed", false],
  ])("reads %j as %s, permanent %s", (fields, kind, permanent) => {
    const error = toMailError(Object.assign(new Error("boom"), fields), []);
    expect(error).toMatchObject({ failure: kind, permanent });
  });
});

describe("sendMail and mailEnabled", () => {
  const saved = { ...process.env };
  const LIVE = {
    SERVICE_BASE_URL: "https://api.example.test",
    SERVICE_VERIFY_BASE_URL: "https://verify.example.test",
    SERVICE_API_KEY: "sk_live_abcdefghijkl",
    AUTH_SECRET: "x".repeat(40),
  };

  function configure(env: Record<string, string>): void {
    for (const key of ["SMTP_URL", "MAIL_FROM", ...Object.keys(LIVE)]) delete process.env[key];
    Object.assign(process.env, env);
    closeMailTransport();
    dropProcessSingleton("config");
  }

  afterAll(() => {
    process.env = saved;
    closeMailTransport();
    dropProcessSingleton("config");
  });

  it("sends through SMTP_URL as MAIL_FROM, and is off in live mode without SMTP_URL", async () => {
    const sink = await startSink();
    configure({ ...LIVE, SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: "Acme Billing <billing@acme.test>" });
    expect(mailEnabled()).toBe(true);
    await sendMail(MESSAGE);
    expect(sink.received.map((m) => m.from?.text)).toEqual(['"Acme Billing" <billing@acme.test>']);

    configure(LIVE);
    expect(mailEnabled()).toBe(false);
    expect(await failure(sendMail(MESSAGE))).toMatchObject({ failure: "off", permanent: true });
  });
});

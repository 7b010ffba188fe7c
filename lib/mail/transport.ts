import "server-only";

// The one module that talks SMTP (docs/architecture.md "E-mail"): a pooled nodemailer transport made on first use from
// SMTP_URL and MAIL_FROM, and every failure turned into a MailError that says whether to try again.
import path from "node:path";
import { Worker } from "node:worker_threads";

import { getConfig } from "@/lib/config";
import { dropProcessSingleton, peekProcessSingleton, processSingleton } from "@/lib/util/process-singleton";

import { MailError, safeDetail, toMailError } from "./errors";

/** Milliseconds (docs/decisions.md "E-mail transport (issue 39)"): a server that hangs fails the attempt, it does not hold a job. */
export const MAIL_TIMEOUTS: Readonly<MailTimeouts> = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Connections the pool keeps open (nodemailer's default is 5): each message is several round trips, so a burst of
 * payments e-mailed to a team (1,000 to 5 people: 5,000 e-mails) is sent at the pace of connections, not CPU, up to
 * about 25 (docs/decisions.md "E-mails and attempts in batches"). `?maxConnections=N` on SMTP_URL sets fewer.
 */
export const MAIL_CONNECTIONS = 25;

export interface MailTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

export interface OutgoingMail {
  /** One recipient: a notification goes to one person at a time. */
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
}

export interface SentMail {
  /** The Message-ID header the message was sent with, angle brackets included. */
  messageId: string;
  /** The server's last reply, e.g. "250 2.0.0 Ok: queued as …". */
  response: string;
}

export interface MailTransport {
  /** Resolves once the server accepted the message; rejects with a MailError. */
  send(mail: OutgoingMail): Promise<SentMail>;
  /** Ends the pool's connections (a message being sent finishes first). */
  close(): void;
  /** True once closed, or once its thread stopped: it sends nothing more. */
  readonly ended: boolean;
}

export interface MailTransportOptions {
  /** The From header, e.g. `Fundboard <fundboard@localhost>`. */
  from: string;
  /** Shorter waits for tests; MAIL_TIMEOUTS otherwise. */
  timeouts?: Partial<MailTimeouts>;
}

/** The credentials in an SMTP URL, as written and decoded: cut out of every message a MailError carries. */
function secretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  // A user name of a few letters ("me") would blank out ordinary words; a password of any length is cut.
  const user = parsed.username.length >= 4 ? [parsed.username, decode(parsed.username)] : [];
  const password = parsed.password ? [parsed.password, decode(parsed.password)] : [];
  // Longest first, so a secret containing another is cut whole.
  return [...new Set([...password, ...user])].sort((a, b) => b.length - a.length);
}

/**
 * The SMTP pool's thread: a plain CommonJS file read from the app's folder when the first transport is made (the
 * server's bundle does not carry it; `npm start`, the worker and the tests all run from that folder).
 */
const THREAD_SCRIPT = path.join(process.cwd(), "lib", "mail", "smtp-thread.cjs");

/** The thread's answer to one message: what nodemailer said, or its failure's code, reply code and message. */
interface ThreadAnswer {
  id: number;
  info?: { messageId: string; response: string; rejected: string[] };
  error?: { message: string; code?: string; responseCode?: number };
}

/**
 * A transport to `url` (smtp:// or smtps://, credentials in it); sendMail uses the configured one, tests make their
 * own. nodemailer runs on a thread of its own (lib/mail/smtp-thread.cjs), so a message's several round trips are
 * not each held up by a busy server thread (docs/decisions.md "E-mails and attempts in batches").
 */
export function createMailTransport(url: string, options: MailTransportOptions): MailTransport {
  const secrets = secretsOf(url);
  const thread = new Worker(THREAD_SCRIPT, {
    workerData: {
      options: {
        url,
        pool: true,
        maxConnections: MAIL_CONNECTIONS,
        ...MAIL_TIMEOUTS,
        ...options.timeouts,
        // Our templates attach nothing; no message may make this process read a file or fetch a URL.
        disableFileAccess: true,
        disableUrlAccess: true,
      },
    },
  });
  // The thread keeps the process alive only while a message is on its way.
  thread.unref();
  const waiting = new Map<number, (answer: ThreadAnswer) => void>();
  let lastId = 0;
  let stopped: Error | null = null;
  const settle = (answer: ThreadAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
    if (waiting.size === 0) thread.unref();
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const id of [...waiting.keys()]) settle({ id, error: { message: error.message } });
  };
  thread.on("message", settle);
  thread.on("error", stop);
  thread.on("exit", () => stop(new Error("the mail thread has stopped")));
  return {
    async send(mail) {
      if (stopped) throw toMailError(stopped, secrets);
      const id = ++lastId;
      const answer = await new Promise<ThreadAnswer>((resolve) => {
        waiting.set(id, resolve);
        thread.ref();
        thread.postMessage({ id, mail: { from: options.from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text, headers: mail.headers } });
      });
      if (answer.error || !answer.info) {
        const failure = answer.error ?? { message: "the mail thread gave no answer" };
        throw toMailError(Object.assign(new Error(failure.message), { code: failure.code, responseCode: failure.responseCode }), secrets);
      }
      const { info } = answer;
      if (info.rejected.length > 0) {
        throw new MailError({ failure: "rejected", permanent: true, detail: safeDetail(`the server refused ${info.rejected.join(", ")}`, secrets) });
      }
      return { messageId: info.messageId, response: safeDetail(info.response, secrets) };
    },
    close() {
      stopped ??= new Error("the mail transport was closed");
      thread.postMessage({ type: "close" });
    },
    get ended() {
      return stopped !== null;
    },
  };
}

const TRANSPORT = "mail.transport";

/** False in live mode without SMTP_URL: notifications stay in the dashboard. */
export function mailEnabled(): boolean {
  return getConfig().mail.url !== null;
}

/** Sends through SMTP_URL as MAIL_FROM; a MailError says whether to try again (`permanent`). */
export async function sendMail(mail: OutgoingMail): Promise<SentMail> {
  const { url, from } = getConfig().mail;
  if (url === null) throw new MailError({ failure: "off", permanent: true, code: "EMAILOFF", detail: "SMTP_URL is unset" });
  const make = () => createMailTransport(url, { from });
  let transport = processSingleton(TRANSPORT, make);
  // A transport whose thread stopped (it failed) is replaced: what it failed is retried, and the next message is sent.
  if (transport.ended) {
    dropProcessSingleton(TRANSPORT);
    transport = processSingleton(TRANSPORT, make);
  }
  return transport.send(mail);
}

/** Closes the configured transport (at shutdown); the next sendMail makes a new one. */
export function closeMailTransport(): void {
  peekProcessSingleton<MailTransport>(TRANSPORT)?.close();
  dropProcessSingleton(TRANSPORT);
}

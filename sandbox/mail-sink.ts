// The sandbox's SMTP sink (docs/architecture.md "E-mail"): takes any message for anyone, without AUTH or TLS, and files
// it in the mailbox instead of delivering it. `npm start` points SMTP_URL here in sandbox mode.
import type { AddressInfo } from "node:net";

import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerError } from "smtp-server";

import type { Mailbox } from "./mailbox";

/** Larger messages are refused with 552 (the SIZE extension tells clients beforehand). */
export const MAIL_SIZE_LIMIT_BYTES = 1024 * 1024;

export interface MailSink {
  port: number;
  close(): Promise<void>;
}

export interface MailSinkOptions {
  /** 0: a random free port. */
  port: number;
  host: string;
  mailbox: Mailbox;
  log: (line: string) => void;
}

function smtpError(message: string, responseCode: number): SMTPServerError {
  return Object.assign(new Error(message), { responseCode });
}

export async function startMailSink(opts: MailSinkOptions): Promise<MailSink> {
  const { mailbox, log } = opts;
  const server = new SMTPServer({
    banner: "Fundboard sandbox mail sink: messages are kept for the mailbox page, never delivered",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAIL_SIZE_LIMIT_BYTES,
    rejectOversized: true,
    disableReverseLookup: true,
    logger: false,
    // On close, clients still connected (a pooled transport keeps its connections) get 421 after this, not 30 s.
    closeTimeout: 200,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          if (stream.sizeExceeded) {
            callback(smtpError(`Message exceeds the sandbox's limit of ${MAIL_SIZE_LIMIT_BYTES} bytes`, 552));
            return;
          }
          const sender = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
          const author = parsed.from?.value[0];
          mailbox.deliver(
            session.envelope.rcptTo.map((r) => r.address),
            {
              from: author?.address ? (author.name ? `${author.name} <${author.address}>` : author.address) : sender,
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : null,
            },
          );
          callback(null, "Kept in the sandbox mailbox");
        },
        (error: unknown) => {
          log(`mail sink: could not read a message: ${error instanceof Error ? error.message : String(error)}`);
          callback(smtpError("The sandbox could not read this message", 451));
        },
      );
    },
  });
  // Connection errors (a client hanging up mid-command) are emitted here; an unheard 'error' would end the process.
  const onError = (error: Error) => log(`mail sink: ${error.message}`);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", onError);

  let closing: Promise<void> | null = null;
  return {
    port: (server.server.address() as AddressInfo).port,
    close() {
      closing ??= new Promise((resolve) => server.close(() => resolve()));
      return closing;
    },
  };
}

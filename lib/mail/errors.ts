import "server-only";

import type { NodemailerError } from "nodemailer";

import { addBrand, hasBrand } from "@/lib/util/brand";

/** Why a message was not sent (docs/architecture.md "E-mail"). */
export type MailFailure =
  /** The server could not be reached, or the connection broke (refused, reset, DNS, TLS). */
  | "unreachable"
  /** Connecting, the greeting or a reply took too long. */
  | "timeout"
  /** The server refused the sender, the recipient or the message: see `responseCode`. */
  | "rejected"
  /** The server refused our credentials, or wants some and SMTP_URL has none. */
  | "auth"
  /** E-mail is off: SMTP_URL is unset in live mode. */
  | "off"
  | "failed";

export interface MailErrorInit {
  failure: MailFailure;
  permanent: boolean;
  /** The SMTP reply code, when the server answered one. */
  responseCode?: number;
  /** Nodemailer's code (ECONNECTION, ETIMEDOUT, EENVELOPE, EAUTH…), or ours. */
  code?: string;
  /** Safe to log and show: no credentials (they are cut out), no stack, one bounded line. */
  detail?: string;
}

// Checked by brand (lib/util/brand.ts): an error made by one bundle's copy of this class passes another's `instanceof`.
export class MailError extends Error {
  static readonly brand: string = "MailError";

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, this.brand);
  }

  readonly failure: MailFailure;
  /**
   * True when sending the same message again would be refused again (the server's 5xx reply to it): do not retry.
   * False for what may pass later: connection failures, timeouts, 4xx replies, refused credentials.
   */
  readonly permanent: boolean;
  readonly responseCode?: number;
  readonly code?: string;

  constructor(init: MailErrorInit) {
    const reply = init.responseCode === undefined ? "" : ` (SMTP ${init.responseCode})`;
    super(`e-mail not sent, ${init.failure}${reply}${init.detail ? `: ${init.detail}` : ""}`);
    this.name = "MailError";
    this.failure = init.failure;
    this.permanent = init.permanent;
    this.responseCode = init.responseCode;
    this.code = init.code;
    addBrand(this, "MailError");
  }
}

const DETAIL_MAX = 300;
const UNREACHABLE = new Set(["ECONNECTION", "ESOCKET", "EDNS", "ETLS", "EPROXY", "ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENOTFOUND"]);

/** One line, bounded, with every secret replaced by `***`. */
export function safeDetail(text: string, secrets: readonly string[]): string {
  let line = text.replace(/[\u0000-\u001f\u007f]+/g, " ");
  for (const secret of secrets) if (secret.length > 0) line = line.split(secret).join("***");
  line = line.replace(/\s+/g, " ").trim();
  return line.length > DETAIL_MAX ? `${line.slice(0, DETAIL_MAX - 1)}…` : line;
}

/**
 * Nodemailer's error as a MailError (docs/decisions.md "E-mail transport (issue 39)"): a 5xx reply is permanent, except
 * 503 (a command out of sequence: the session's fault, not the message's) and a refused login (our configuration, which
 * a fix makes good for the messages waiting); a 4xx reply, a broken or refused connection and a timeout are transient.
 */
export function toMailError(error: unknown, secrets: readonly string[]): MailError {
  if (error instanceof MailError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as NodemailerError;
  const code = typeof e.code === "string" ? e.code : undefined;
  const responseCode = typeof e.responseCode === "number" ? e.responseCode : undefined;
  // Nodemailer's message carries the server's reply ("Can't send mail - all recipients were rejected: 550 …").
  const detail = safeDetail(error instanceof Error ? error.message : String(error), secrets);
  if (code === "EAUTH" || code === "ENOAUTH" || responseCode === 530 || responseCode === 535) {
    return new MailError({ failure: "auth", permanent: false, responseCode, code, detail });
  }
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 600) {
    const permanent = responseCode >= 500 && responseCode !== 503;
    return new MailError({ failure: "rejected", permanent, responseCode, code, detail });
  }
  if (code === "ETIMEDOUT") return new MailError({ failure: "timeout", permanent: false, code, detail });
  if (code !== undefined && UNREACHABLE.has(code)) return new MailError({ failure: "unreachable", permanent: false, code, detail });
  // A message nodemailer could not even put on the wire (no recipient, a malformed address): sending it again fails too.
  if (code === "EENVELOPE" || code === "EMESSAGE") return new MailError({ failure: "rejected", permanent: true, code, detail });
  return new MailError({ failure: "failed", permanent: false, code, detail });
}

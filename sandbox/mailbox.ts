// The sandbox's mailbox: what its SMTP sink (mail-sink.ts) received, newest first, in memory only (docs/architecture.md "E-mail").

/** Messages kept; the oldest go first past this. */
export const MAILBOX_CAP = 1_000;

/** One message as one recipient got it: the wire shape of `GET /sandbox/mail`. */
export interface MailMessage {
  id: string;
  /** The envelope recipient (RCPT TO): a message to several people is kept once for each, as their own mailboxes would. */
  to: string;
  /** The From header's first address as `Name <address>`, e.g. `Fundboard <fundboard@localhost>` (else the envelope sender). */
  from: string;
  subject: string;
  /** The plain-text part ("" when the message has none). */
  text: string;
  /** The HTML part as sent (null when the message has none); shown only inside a sandboxed frame (mail-page.ts). */
  html: string | null;
  /** When the sink accepted it: ISO 8601 UTC with milliseconds. */
  at: string;
}

export type MailContent = Pick<MailMessage, "from" | "subject" | "text" | "html">;

export class Mailbox {
  /** Newest first. */
  private messages: MailMessage[] = [];
  private lastId = 0;

  constructor(private readonly cap = MAILBOX_CAP) {}

  /** Files one copy of `content` for each recipient. */
  deliver(recipients: readonly string[], content: MailContent, at: Date = new Date()): MailMessage[] {
    const filed = recipients.map((to) => ({ id: String(++this.lastId), to, ...content, at: at.toISOString() }));
    this.messages = [...filed.reverse(), ...this.messages].slice(0, this.cap);
    return filed;
  }

  /** Newest first; `to` (case-insensitive, surrounding spaces ignored) keeps one recipient's messages, blank keeps all. */
  list(to?: string | null): MailMessage[] {
    const wanted = to?.trim().toLowerCase();
    return wanted ? this.messages.filter((m) => m.to.toLowerCase() === wanted) : [...this.messages];
  }

  get(id: string): MailMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  clear(): void {
    this.messages = [];
  }
}

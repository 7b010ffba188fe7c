// What the notification suites share: a staff member to tell, a port nothing answers on, and a real SMTP sink (the
// sandbox's) with a transport to it, started before a suite's tests and closed after them.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";

import { afterAll, beforeAll } from "vitest";

import type { Role } from "@/lib/client/auth/roles";
import type { Db } from "@/lib/db/client";
import { staff } from "@/lib/db/schema";
import { createMailTransport, type MailTransport } from "@/lib/mail/transport";
import { startMailSink, type MailSink } from "@/sandbox/mail-sink";
import { Mailbox } from "@/sandbox/mailbox";

/** A staff row of `role` with a fresh address (disabled when asked). */
export async function staffMember(db: Db, role: Role, disabled = false): Promise<{ id: string; email: string }> {
  const email = `${role}-${randomBytes(4).toString("hex")}@example.test`;
  const [row] = await db
    .insert(staff)
    .values({ email, name: `A ${role}`, role, passwordHash: "x", disabled })
    .returning({ id: staff.id });
  if (!row) throw new Error("no staff row");
  return { id: row.id, email };
}

/** A port nothing listens on (taken, then let go). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface SuiteMail {
  /** What the sink received, newest first. */
  mailbox: Mailbox;
  /** A transport to the sink (valid inside the suite's tests). */
  transport(): MailTransport;
}

/** The sandbox's SMTP sink on a free port for this suite, and a pooled transport to it. */
export function useMailSink(): SuiteMail {
  const mailbox = new Mailbox();
  let sink: MailSink | null = null;
  let transport: MailTransport | null = null;
  beforeAll(async () => {
    sink = await startMailSink({ port: 0, host: "127.0.0.1", mailbox, log: () => undefined });
    transport = createMailTransport(`smtp://127.0.0.1:${sink.port}`, { from: "Fundboard <fundboard@localhost>" });
  });
  afterAll(async () => {
    transport?.close();
    await sink?.close();
  });
  return {
    mailbox,
    transport() {
      if (!transport) throw new Error("the mail sink starts before the suite's tests");
      return transport;
    },
  };
}

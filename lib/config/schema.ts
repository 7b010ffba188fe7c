import { z } from "zod";

import { isTimeZone } from "@/lib/client/time/zone";

// A URL without credentials or a fragment; the trailing slash is dropped so paths join cleanly.
const httpUrl = z
  .string()
  .url("must be an http(s) URL, e.g. https://api.example.com")
  .refine((u) => /^https?:\/\//i.test(u), "must start with http:// or https://")
  .transform((u) => u.replace(/\/+$/, ""));

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

// `local@domain`, or `Name <local@domain>` / `"Name, Inc." <local@domain>`: one line (no header injection), one address.
const ADDRESS = String.raw`[^\s<>@",;]+@[^\s<>@",;]+`;
const MAILBOX = new RegExp(String.raw`^(?:${ADDRESS}|(?:"[^"\r\n]*" *|[^<>"\r\n,;]*)<${ADDRESS}>)$`);

const port = z.coerce
  .number({ message: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  SERVICE_BASE_URL: httpUrl.optional(),
  SERVICE_VERIFY_BASE_URL: httpUrl.optional(),
  SERVICE_API_KEY: z.string().min(8, "must be at least 8 characters").regex(/^\S+$/, "must not contain spaces").optional(),
  SERVICE_AMOUNT_UNIT: z.enum(["major", "minor"], { message: 'must be "major" (naira) or "minor" (kobo)' }).default("major"),
  APP_URL: httpUrl.optional(),
  PORT: port.default(3000),
  // The address `npm start` binds the dashboard to; unset: 127.0.0.1 in sandbox mode (its demo password is public), every interface otherwise.
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, "must be an address or host name to listen on, e.g. 0.0.0.0 or 127.0.0.1")
    .optional(),
  SANDBOX_PORT: port.max(65533, "must be at most 65533 (the verify host and the mail sink use the next two ports)").default(4010),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (generate one with `openssl rand -base64 32`)").optional(),
  ADMIN_EMAIL: z.string().email("must be an e-mail address").optional(),
  ADMIN_PASSWORD: z.string().min(10, "must be at least 10 characters").optional(),
  ADMIN_RESET: z.enum(["0", "1"], { message: 'must be "1" (reset the ADMIN_EMAIL account at this start) or "0"' }).default("0"),
  SERVICE_RATE_LIMIT_PER_MIN: z.coerce
    .number({ message: "must be the service's calls per minute for the API host, e.g. 90" })
    .int("must be a whole number")
    .min(3, "must be at least 3")
    .max(100_000, "must be at most 100000")
    .default(90),
  TRUST_PROXY: z.coerce
    .number({ message: "must be the number of proxies in front of the dashboard (0 when none)" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(10, "must be at most 10")
    .default(0),
  // A sign-in ends this many days after it began, however active it is (the idle limit is 12 hours).
  SESSION_MAX_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be between 1 and 90")
    .max(90, "must be between 1 and 90")
    .default(7),
  // The business's time zone (docs/decisions.md "Days are days in `TIMEZONE`"): every time shown and every day boundary ("today", the chart, date filters).
  TIMEZONE: z.string().default("Africa/Lagos").refine(isTimeZone, "must be an IANA time zone name, such as Africa/Lagos or Europe/London"),
  // An accepted request with no payment this many minutes later is a lost webhook (docs/architecture.md "Closing the books", lib/exceptions).
  LOST_WEBHOOK_MINUTES: z.coerce
    .number({ message: "must be a number of minutes" })
    .int("must be a whole number of minutes")
    .min(1, "must be between 1 and 1440")
    .max(1440, "must be between 1 and 1440")
    .default(15),
  // "0": a web-only instance (no job worked, no clock kept) beside `npm run worker` on the same Postgres (docs/decisions.md, "Workers apart").
  WORKERS: z
    .enum(["0", "1"], { message: 'must be "1" (this instance also works the jobs, the default) or "0" (web only: `npm run worker` works them)' })
    .default("1"),
  // "1": outgoing webhooks may reach loopback, private and CGNAT addresses in live mode (docs/decisions.md "Outgoing webhooks").
  WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"], { message: 'must be "0" (the default: public addresses only in live mode) or "1"' }).default("0"),
  // Days of webhook delivery-log rows kept; older ones are pruned in batches (docs/architecture.md).
  // Where notification e-mail goes (docs/architecture.md "E-mail"); unset: the sandbox's mail sink in sandbox mode, no e-mail in live mode.
  SMTP_URL: z.string().refine(isSmtpUrl, "must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@mail.example.com:587").optional(),
  // The From of notification e-mails: an address, or a display name and an address in angle brackets.
  MAIL_FROM: z
    .string()
    .regex(MAILBOX, 'must be an address, or a name and an address such as "Fundboard <fundboard@example.com>" (one line, no commas in an unquoted name)')
    .default("Fundboard <fundboard@localhost>"),
  DELIVERY_LOG_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .int("must be a whole number of days")
    .min(1, "must be between 1 and 3650")
    .max(3650, "must be between 1 and 3650")
    .default(90),
});

export type RawEnv = z.infer<typeof envSchema>;

import { z } from "zod";

// The notifications list's query and the read marks (docs/architecture.md "Notifications"), shared by the page, the
// routes and the bell.

export interface NotificationView {
  id: string;
  type: string;
  title: string;
  body: string;
  link: string;
  createdAt: string;
  read: boolean;
  /** none · queued · digest · sent · failed: a failed e-mail is shown as such, never silent. */
  email: "none" | "queued" | "digest" | "sent" | "failed";
  emailError: string | null;
}

/** A daily digest that could not be sent (every attempt failed, or the server refused it for good), with why. */
export interface FailedDigestView {
  /** The day it covered ("2026-11-27"), in the dashboard's time zone. */
  day: string;
  /** "Friday, 27 November 2026". */
  dayLabel: string;
  error: string;
  /** That day in the day book: the digest's figures. */
  link: string;
}

export interface NotificationPage {
  items: NotificationView[];
  /** The person's daily digests of the last FAILED_DIGEST_DAYS days that failed, newest first: shown, never silent. */
  failedDigests: FailedDigestView[];
  page: number;
  pageSize: number;
  total: number;
  unread: number;
}

/** How far back a failed digest is still shown on the notifications page. */
export const FAILED_DIGEST_DAYS = 7;

export interface NotificationQuery {
  unread: boolean;
  page: number;
}

/** `?unread=1&page=2`, read leniently (an unusable value is its default), as the other lists do. */
export function notificationQueryFromSearch(get: (name: string) => string | null): NotificationQuery {
  const page = Number(get("page") ?? "1");
  return { unread: get("unread") === "1" || get("unread") === "true", page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

export const markReadSchema = z.union(
  [
    z.object({ all: z.literal(true) }).strict(),
    z
      .object({
        ids: z
          .array(z.uuid({ error: "Each id is a notification's id" }))
          .min(1, "Name at least one notification")
          .max(100, "At most 100 at a time"),
      })
      .strict(),
  ],
  { error: "Send { ids: [...] } or { all: true }" },
);
export type MarkRead = z.infer<typeof markReadSchema>;

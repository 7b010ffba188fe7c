"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { LocalTime } from "@/components/ui/local-time";
import { Pager } from "@/components/ui/pager";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { NotificationQuery, NotificationView } from "@/lib/client/notifications/view";
import { keys, notificationListQuery } from "@/lib/client/query/options";

// The notifications page's list (newest first, paged in the URL), with mark read and mark all read; above it, the
// person's daily digests that could not be sent, with why (never silent).

const EMAIL_WORDS: Record<NotificationView["email"], string | null> = {
  none: null,
  queued: "E-mail on its way",
  digest: "Kept for the daily digest",
  sent: "E-mailed",
  failed: "E-mail failed",
};

function href(q: NotificationQuery): string {
  const params = new URLSearchParams();
  if (q.unread) params.set("unread", "1");
  if (q.page > 1) params.set("page", String(q.page));
  const s = params.toString();
  return s ? `/notifications?${s}` : "/notifications";
}

export function NotificationList({ query }: { query: NotificationQuery }) {
  const client = useQueryClient();
  const list = useQuery(notificationListQuery(query));
  const mark = useMutation({
    mutationFn: (body: { ids: string[] } | { all: true }) => apiFetchWithMessage("/api/notifications/read", { method: "POST", json: body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.notifications }),
  });
  const error = mark.isError ? (mark.error instanceof ApiError ? mark.error.message : "That did not save. Try again.") : null;
  if (list.isError) return <ErrorNote role="alert">The notifications could not be read. Reload the page to try again.</ErrorNote>;
  if (!list.data) return <p className="text-sm text-slate-600">Loading…</p>;
  const { items, failedDigests, page, pageSize, total, unread } = list.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="space-y-4">
      {failedDigests.length > 0 ? (
        <section aria-labelledby="failed-digests" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="failed-digests">
          <h2 id="failed-digests" className="font-semibold">
            {failedDigests.length === 1 ? "A daily digest could not be sent" : "Daily digests that could not be sent"}
          </h2>
          <ul className="mt-1 space-y-1">
            {failedDigests.map((d) => (
              <li key={d.day} data-testid="failed-digest">
                The digest of {d.dayLabel} failed: {d.error}{" "}
                <Link href={d.link} className="underline">
                  Open that day in the day book
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Link href={href({ unread: false, page: 1 })} aria-current={query.unread ? undefined : "page"} className={query.unread ? "underline" : "font-semibold"}>
          All
        </Link>
        <Link href={href({ unread: true, page: 1 })} aria-current={query.unread ? "page" : undefined} className={query.unread ? "font-semibold" : "underline"}>
          Unread ({unread})
        </Link>
        <Button variant="secondary" className="ml-auto" disabled={unread === 0 || mark.isPending} onClick={() => mark.mutate({ all: true })}>
          Mark all read
        </Button>
      </div>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{query.unread ? "Nothing unread." : "Nothing yet. What you chose to be told about shows here."}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white" data-testid="notification-list">
          {items.map((n) => (
            <li key={n.id} className="flex flex-wrap items-start gap-3 p-3" data-testid="notification-item">
              <div className="min-w-0 flex-1 space-y-1">
                <p className={n.read ? "text-slate-700" : "font-semibold text-slate-900"}>
                  <Link href={n.link} className="underline-offset-2 hover:underline">
                    {n.title}
                  </Link>
                  {n.read ? null : <span className="sr-only"> (unread)</span>}
                </p>
                {n.body ? <p className="text-sm whitespace-pre-line text-slate-600">{n.body}</p> : null}
                <p className="text-xs text-slate-600">
                  <LocalTime iso={n.createdAt} />
                  {EMAIL_WORDS[n.email] ? ` · ${EMAIL_WORDS[n.email]}` : ""}
                  {n.email === "failed" && n.emailError ? `: ${n.emailError}` : ""}
                </p>
              </div>
              {n.read ? null : (
                <Button variant="quiet" disabled={mark.isPending} onClick={() => mark.mutate({ ids: [n.id] })} aria-label={`Mark read: ${n.title}`}>
                  Mark read
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager newerHref={page > 1 ? href({ ...query, page: page - 1 }) : null} olderHref={page < pages ? href({ ...query, page: page + 1 }) : null}>
        Page {page} of {pages}
      </Pager>
    </div>
  );
}

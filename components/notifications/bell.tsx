"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { unreadNotificationsQuery } from "@/lib/client/query/options";

// The header's bell (docs/architecture.md "Notifications"): the unread count, moved by `notification.created` on this
// person's live stream and by reading them.

export function NotificationBell() {
  const unread = useQuery(unreadNotificationsQuery());
  const count = unread.data ?? 0;
  const label = count === 0 ? "Notifications, none unread" : `Notifications, ${count > 99 ? "99+" : count} unread`;
  return (
    <Link
      href="/notifications"
      aria-label={label}
      data-testid="notification-bell"
      className="relative inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
        <path d="M10 2a5 5 0 0 0-5 5v2.6L3.3 12.3A1 1 0 0 0 4 14h12a1 1 0 0 0 .7-1.7L15 9.6V7a5 5 0 0 0-5-5Zm0 16a2.5 2.5 0 0 1-2.45-2h4.9A2.5 2.5 0 0 1 10 18Z" />
      </svg>
      {count > 0 ? (
        <span
          data-testid="notification-count"
          className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white tabular-nums"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}

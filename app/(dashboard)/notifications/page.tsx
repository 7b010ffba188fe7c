import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import Link from "next/link";

import { NotificationList } from "@/components/notifications/notification-list";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { notificationQueryFromSearch } from "@/lib/client/notifications/view";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { readNotificationPage } from "@/lib/notifications/inbox";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Notifications" };

type Search = Promise<Record<string, string | string[] | undefined>>;

// The person's notifications (docs/architecture.md "Notifications"), prefetched with the read GET /api/notifications
// uses; the filter and page stay in the URL.
export default async function NotificationsPage({ searchParams }: { searchParams: Search }) {
  const staff = await requirePageStaff("account.own", "/notifications");
  const raw = await searchParams;
  const query = notificationQueryFromSearch((name) => {
    const value = raw[name];
    return typeof value === "string" ? value : null;
  });
  const db = await getDb();
  const client = getServerQueryClient();
  await client.prefetchQuery({ queryKey: keys.notificationList(query), queryFn: () => readNotificationPage(db, staff.id, query) });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Notifications</h1>
      <p className="text-sm text-slate-700">
        What happened that you chose to be told about, newest first. Choose what arrives, and whether by e-mail, on{" "}
        <Link href="/account#notifications" className="underline">
          your account page
        </Link>
        .
      </p>
      <HydrationBoundary state={dehydrate(client)}>
        <NotificationList query={query} />
      </HydrationBoundary>
    </div>
  );
}

import { withStaff } from "@/lib/auth/guard";
import { notificationQueryFromSearch } from "@/lib/client/notifications/view";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readNotificationPage } from "@/lib/notifications/inbox";

export const dynamic = "force-dynamic";

/** The person's own notifications, newest first (docs/architecture.md "Notifications"): ?unread=1&page=. */
export const GET = withStaff("account.own", async (request, { db, staff }) => {
  const params = request.nextUrl.searchParams;
  return ok(
    await readNotificationPage(
      db,
      staff.id,
      notificationQueryFromSearch((name) => params.get(name)),
    ),
    "OK",
    200,
    { "Cache-Control": "no-store" },
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

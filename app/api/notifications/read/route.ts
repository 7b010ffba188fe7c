import { withStaff } from "@/lib/auth/guard";
import { markReadSchema } from "@/lib/client/notifications/view";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { markNotificationsRead } from "@/lib/notifications/use-cases";

export const dynamic = "force-dynamic";

/** Marks the person's notifications read: `{ ids }` or `{ all: true }`. */
export const POST = withStaff("account.own", async (request, { db, actor }) => {
  const outcome = await markNotificationsRead(db, actor, await parseJsonBody(request, markReadSchema));
  return ok({ marked: outcome.count }, outcome.count === 1 ? "1 notification marked read." : `${outcome.count} notifications marked read.`);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import { withStaff } from "@/lib/auth/guard";
import { listSessions } from "@/lib/auth/sessions";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** The person's open sessions (device, address, started, last seen); `current` marks this one. */
export const GET = withStaff(
  "account.own",
  async (_request, { db, staff }) => {
    const items = await listSessions(db, staff.id, staff.sessionId);
    return ok({ items, page: 1, pageSize: items.length, total: items.length });
  },
  { duringEnrolment: true },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { withStaff } from "@/lib/auth/guard";
import { parseJsonBody } from "@/lib/http/body";
import { conflict } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { listStaff, toStaffView } from "@/lib/auth/accounts";
import { addStaffAccount } from "@/lib/auth/manage-staff";
import { staffCreateSchema } from "@/lib/client/staff/schemas";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff("staff.manage", async (_request, { db }) => {
  const rows = await listStaff(db);
  return ok({ items: rows.map(toStaffView), page: 1, pageSize: rows.length, total: rows.length });
});

export const POST = withStaff("staff.manage", async (request, { db, actor }) => {
  const body = await parseJsonBody(request, staffCreateSchema);
  // The admin chose this password: the person picks their own at first sign-in.
  const outcome = await addStaffAccount(db, actor, body);
  if (outcome.kind === "email_taken")
    throw conflict(`An account for ${body.email} already exists.`, { fieldErrors: { email: ["This e-mail already has an account"] } });
  return ok(toStaffView(outcome.staff), "Account created", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

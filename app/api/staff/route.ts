import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { ADMINS } from "@/lib/client/auth/roles";
import { parseJsonBody } from "@/lib/http/body";
import { conflict } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { createStaff, listStaff, toStaffView } from "@/lib/auth/accounts";
import { staffCreateSchema } from "@/lib/client/staff/schemas";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff(ADMINS, async (_request, { db }) => {
  const rows = await listStaff(db);
  return ok({ items: rows.map(toStaffView), page: 1, pageSize: rows.length, total: rows.length });
});

export const POST = withStaff(ADMINS, async (request, { db, staff, ip }) => {
  const body = await parseJsonBody(request, staffCreateSchema);
  // The admin chose this password: the person picks their own at first sign-in.
  const row = await createStaff(db, { ...body, mustChangePassword: true });
  if (!row) throw conflict(`An account for ${body.email} already exists.`, { fieldErrors: { email: ["This e-mail already has an account"] } });
  await writeAudit(db, { action: "staff.created", actor: staff, target: row.email, detail: { role: row.role }, ip });
  return ok(toStaffView(row), "Account created", 201);
});

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

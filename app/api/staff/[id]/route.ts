import { withStaff } from "@/lib/auth/guard";
import { parseJsonBody } from "@/lib/http/body";
import { conflict, notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { toStaffView } from "@/lib/auth/accounts";
import { changeStaffAccount } from "@/lib/auth/manage-staff";
import { staffPatchSchema } from "@/lib/client/staff/schemas";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** A new role, or disabled or enabled (lib/auth/manage-staff.ts decides, audits and signs the person out). */
export const PATCH = withStaff<{ id: string }>("staff.manage", async (request, { db, actor, params }) => {
  const outcome = await changeStaffAccount(db, actor, params.id, await parseJsonBody(request, staffPatchSchema));
  switch (outcome.kind) {
    case "not_found":
      throw notFound("No staff account has that id.");
    case "own_account":
      throw conflict("You cannot disable or demote your own account; ask another admin.");
    case "last_admin":
      throw conflict("This is the last active admin; make someone else an admin first.");
    case "changed":
      return ok(toStaffView(outcome.staff), "Account updated");
  }
});

export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");

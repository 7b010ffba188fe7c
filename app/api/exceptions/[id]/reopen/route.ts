import { writeAudit } from "@/lib/audit/write";
import { withStaff } from "@/lib/auth/guard";
import { SENDERS } from "@/lib/client/auth/roles";
import { toExceptionView } from "@/lib/exceptions/queries";
import { reopenException } from "@/lib/exceptions/resolve";
import { ok } from "@/lib/http/envelope";

import { answerRefusal } from "../../refused";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Reopens a resolved exception; from then on only a person closes it. Audited. */
export const POST = withStaff<{ id: string }>(SENDERS, async (_request, { db, params, staff, ip }) => {
  const row = await reopenException(db, params.id).catch(answerRefusal);
  await writeAudit(db, { action: "exception.reopened", actor: staff, target: row.id, detail: { kind: row.kind, paymentUuid: row.paymentUuid }, ip });
  return ok(toExceptionView(row), "Reopened: it stays open until someone resolves it.");
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

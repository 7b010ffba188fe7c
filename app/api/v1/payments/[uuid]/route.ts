import { viewRoleOf } from "@/lib/actors/actor";
import { getPayment as getPaymentOp } from "@/lib/api/v1/ops/reads";
import { withApiKey } from "@/lib/api-keys/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getPayment } from "@/lib/payments/query";

export const dynamic = "force-dynamic";

export const GET = withApiKey<{ uuid: string }>(getPaymentOp, async (_request, { db, actor, params }) => {
  const payment = await getPayment(db, params.uuid, viewRoleOf(actor));
  if (!payment) throw notFound(`No payment ${params.uuid} has been recorded. Check the id, or list the payments.`);
  return ok(payment);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { ok } from "@/lib/http/envelope";
import { getPayment } from "@/lib/payments/query";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withStaff<{ uuid: string }>("payments.read", async (_request, { db, staff, params }) => {
  const payment = await getPayment(db, params.uuid, staff.role);
  if (!payment) throw notFound(`No payment ${params.uuid} has been recorded. Check the id, or look in the payments list.`);
  return ok(payment, "OK", 200, { "Cache-Control": "no-store" });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

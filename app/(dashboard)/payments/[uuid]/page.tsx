import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { notFound } from "next/navigation";

import { PaymentDetail } from "@/components/payments/payment-detail";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { getPayment } from "@/lib/payments/query";
import { keys } from "@/lib/client/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Payment" };

export default async function PaymentPage({ params }: { params: Promise<{ uuid: string }> }) {
  const { uuid: raw } = await params;
  const staff = await requirePageStaff("payments.read", `/payments/${raw}`);
  // A uuid needs no decoding: anything with escapes in it is not one.
  if (malformedParam({ uuid: raw })) notFound();
  const uuid = raw.toLowerCase();
  const payment = await getPayment(await getDb(), uuid, staff.role);
  if (!payment) notFound();
  const client = getServerQueryClient();
  client.setQueryData(keys.payment(uuid), payment);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <PaymentDetail uuid={uuid} canReverify={can(staffActor(staff), "payments.reverify")} />
    </HydrationBoundary>
  );
}

import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { notFound } from "next/navigation";

import { PayerPage } from "@/components/payers/payer-page";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { payerKey } from "@/lib/client/payers/tag";
import { keys } from "@/lib/client/query/options";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { readPayerDetail } from "@/lib/payers/queries";
import { getServerQueryClient } from "@/lib/query/server-client";

export const metadata = { title: "Payer" };

export default async function PayerDetailPage({ params }: { params: Promise<{ tag: string }> }) {
  const { tag } = await params;
  const staff = await requirePageStaff("payers.read", `/payers/${encodeURIComponent(tag)}`);
  let decoded = tag;
  try {
    decoded = decodeURIComponent(tag);
  } catch {
    notFound();
  }
  if (malformedParam({ tag: decoded })) notFound();
  const key = payerKey(decoded);
  const detail = await readPayerDetail(await getDb(), key, staff.role);
  if (!detail) notFound();
  const client = getServerQueryClient();
  client.setQueryData(keys.payer(key), detail);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <PayerPage tag={key} canMark={can(staffActor(staff), "payers.write")} />
    </HydrationBoundary>
  );
}

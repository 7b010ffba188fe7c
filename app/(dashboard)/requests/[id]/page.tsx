import { HydrationBoundary, dehydrate } from "@tanstack/react-query";
import { notFound } from "next/navigation";

import { RequestDetail } from "@/components/requests/request-detail";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { staffActor } from "@/lib/actors/actor";
import { can } from "@/lib/actors/permissions";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { keys } from "@/lib/client/query/options";
import { getServerQueryClient } from "@/lib/query/server-client";
import { requestDeps } from "@/lib/requests/deps";
import { getRequestDetail } from "@/lib/requests/refresh";

export const metadata = { title: "Request" };

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  // A valid id never needs percent-encoding, so anything else (a stray "%" included) is simply not found.
  const { id } = await params;
  const staff = await requirePageStaff("requests.read", `/requests/${encodeURIComponent(id)}`);
  if (malformedParam({ requestId: id })) notFound();
  const client = getServerQueryClient();
  const db = await getDb();
  // Service trouble is left to the browser's query, which shows what failed.
  const outcome = await getRequestDetail(requestDeps(db), id).catch(() => null);
  if (outcome?.kind === "not_found") notFound();
  if (outcome?.kind === "found") client.setQueryData(keys.request(id), outcome.request);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <RequestDetail id={id} canSend={can(staffActor(staff), "requests.write")} />
    </HydrationBoundary>
  );
}

import type { NextRequest } from "next/server";

import { withStaff } from "@/lib/auth/guard";
import { planPatchSchema, planQuerySchema } from "@/lib/client/plans/schemas";
import { conflict, notFound } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getPlanView } from "@/lib/plans/queries";
import { changePlan } from "@/lib/plans/change-plan";

export const dynamic = "force-dynamic";

const NO_PLAN = "No such plan. It may have been made on another dashboard.";

/** `?members=` picks the roster's page (docs/architecture.md "Plans"); the counts are over the whole roster. */
const rosterPage = (request: NextRequest) => ({ page: planQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams)).members });

export const GET = withStaff<{ id: string }>("plans.read", async (request, { db, params }) => {
  const view = await getPlanView(db, params.id, new Date(), rosterPage(request));
  if (!view) throw notFound(NO_PLAN);
  return ok(view, "OK", 200, { "Cache-Control": "no-store" });
});

// Members take up to 1,000 changes at once: a larger body than the usual 16 KiB.
const MAX_PATCH_BYTES = 256 * 1024;

/** Pause, resume or end; add, remove or re-price members; change the schedule. Each from the next period on, audited. */
export const PATCH = withStaff<{ id: string }>("plans.write", async (request, { db, params, actor }) => {
  const patch = await parseJsonBody(request, planPatchSchema, MAX_PATCH_BYTES);
  const outcome = await changePlan(db, actor, params.id, patch);
  if (outcome.kind === "not_found") throw notFound(NO_PLAN);
  if (outcome.kind === "refused") throw conflict(outcome.message, { status: outcome.status });
  return ok(await getPlanView(db, outcome.planId, new Date(), rosterPage(request)), outcome.message);
});

export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");

import { withStaff } from "@/lib/auth/guard";
import { planQuerySchema, runPeriodSchema } from "@/lib/client/plans/schemas";
import { conflict, notFound, unprocessable } from "@/lib/http/api-error";
import { parseJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getPlanView } from "@/lib/plans/queries";
import { runPlanPeriod } from "@/lib/plans/run-period";

export const dynamic = "force-dynamic";

/** Makes a period now (docs/architecture.md "Plans"): the current one or a missed one, under the person who runs it; audited. */
export const POST = withStaff<{ id: string }>("plans.write", async (request, { db, params, actor }) => {
  const { period } = await parseJsonBody(request, runPeriodSchema);
  const outcome = await runPlanPeriod(db, actor, params.id, period);
  if (outcome.kind === "not_found") throw notFound("No such plan. It may have been made on another dashboard.");
  const { plan } = outcome;
  if (outcome.kind === "ended") throw conflict("This plan has ended; its periods can no longer be run.", { status: plan.status });
  if (outcome.kind === "refused") {
    switch (outcome.reason) {
      case "not_a_period":
        throw unprocessable(`${period} is not a ${plan.frequency} period.`, { fieldErrors: { period: [`Name a ${plan.frequency} period`] }, formErrors: [] });
      case "not_in_plan":
        throw conflict(`${period} is outside the plan's dates (${plan.startsOn} to ${plan.endsOn ?? "no end"}).`);
      case "future":
        throw conflict(`${period} is not due yet; it is asked at its time. Only the current period or a missed one can be run now.`);
      case "made":
        throw conflict(`${period} has already been made; open its campaign from the plan's periods.`);
      case "past":
        throw conflict(`${period} is past and not listed missed; only the current period or a missed one can be run.`);
    }
  }
  if (outcome.kind === "exists") throw conflict(`${period} has already been made; open its campaign from the plan's periods.`);
  // The plan as the page shows it: the roster's page it asked for (`?members=`).
  const { members } = planQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
  return ok(
    { plan: await getPlanView(db, plan.id, new Date(), { page: members }), campaignId: outcome.campaignId },
    `${period} is being asked now: its campaign is sending.`,
    201,
  );
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

import { NewPlanForm } from "@/components/plans/new-plan-form";
import { PlanFileFormat } from "@/components/plans/file-format";
import { TextLink } from "@/components/ui/text-link";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { dayOf } from "@/lib/client/time/zone";
import { getConfig } from "@/lib/config";

export const metadata = { title: "New plan" };

export default async function NewPlanPage() {
  await requirePageStaff("plans.write", "/plans/new");
  const now = new Date();
  return (
    <div className="space-y-4">
      <TextLink href="/plans" className="text-sm">
        All plans
      </TextLink>
      <h1 className="text-2xl font-semibold">New plan</h1>
      <p className="text-sm text-slate-700">
        Upload the roster of members and choose when they are asked. Each period gets its own campaign, sent at the period&apos;s time; the plan&apos;s page
        shows who has paid each period.
      </p>
      <div className="grid items-start gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <NewPlanForm today={dayOf(now, getConfig().timeZone)} now={now.toISOString()} />
        <PlanFileFormat />
      </div>
    </div>
  );
}

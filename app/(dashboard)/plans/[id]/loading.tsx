import { PlansSkeleton } from "@/components/plans/skeleton";

export default function Loading() {
  return <PlansSkeleton label="Loading the plan" />;
}

import { Skeleton } from "@/components/ui/skeleton";

/** The plan pages' loading state: a heading, a panel and a few table lines. */
export function PlansSkeleton({ label }: { label: string }) {
  return (
    <div className="space-y-4" aria-busy="true" aria-label={label} role="status">
      <Skeleton className="h-8 w-56" />
      <Skeleton className="h-28" />
      <div className="space-y-2">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-9" />
        ))}
      </div>
    </div>
  );
}

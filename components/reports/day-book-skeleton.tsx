import { Skeleton } from "@/components/ui/skeleton";

/** The day book's loading state: the totals, the chart and a few of the table's lines. */
export function DayBookSkeleton({ label = "Loading the day book" }: { label?: string }) {
  return (
    <div className="space-y-4" aria-busy="true" aria-label={label} role="status">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-16" />
        ))}
      </div>
      <Skeleton className="h-52" />
      <div className="space-y-2">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} className="h-9" />
        ))}
      </div>
    </div>
  );
}

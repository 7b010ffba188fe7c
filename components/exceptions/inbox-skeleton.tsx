import { Skeleton } from "@/components/ui/skeleton";

// The inbox's first paint while the page reads: the tabs, the filter and a few cards.

export function InboxSkeleton({ label = "Loading exceptions" }: { label?: string }) {
  return (
    <div className="space-y-4" aria-busy="true" aria-label={label} role="status">
      <Skeleton className="h-10 w-56" />
      <Skeleton className="h-10 w-72 max-w-full" />
      <ul className="space-y-3">
        {[0, 1, 2].map((i) => (
          <li key={i}>
            <Skeleton className="h-32" />
          </li>
        ))}
      </ul>
    </div>
  );
}

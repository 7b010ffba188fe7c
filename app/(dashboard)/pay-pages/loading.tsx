import { Skeleton } from "@/components/ui/skeleton";

// The pay pages' skeleton while they read (the route's Suspense fallback): the heading, the intro, the list, the form.
export default function Loading() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading pay pages" role="status">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-10 w-full max-w-3xl" />
      <div className="space-y-2">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-12" />
        ))}
      </div>
      <Skeleton className="h-72 w-full" />
    </div>
  );
}

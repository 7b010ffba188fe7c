import { Skeleton } from "@/components/ui/skeleton";

// The API reference's skeleton while the page renders (the route's Suspense fallback).
export default function Loading() {
  return (
    <div className="max-w-5xl space-y-4">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-64 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

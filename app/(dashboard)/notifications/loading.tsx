import { Skeleton } from "@/components/ui/skeleton";

// The notifications page's skeleton while it reads (the route's Suspense fallback).
export default function Loading() {
  return (
    <div className="space-y-4">
      <Skeleton className="h-8 w-48" />
      <Skeleton className="h-10 w-full max-w-2xl" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

import { InboxSkeleton } from "@/components/exceptions/inbox-skeleton";
import { Skeleton } from "@/components/ui/skeleton";

// The inbox's skeleton while the page reads (the route's Suspense fallback).
export default function Loading() {
  return (
    <div className="space-y-4">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-10 w-full max-w-2xl" />
      <InboxSkeleton />
    </div>
  );
}

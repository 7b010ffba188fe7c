import { Skeleton } from "@/components/ui/skeleton";

// The API keys page's skeleton while it reads (the route's Suspense fallback).
export default function Loading() {
  return (
    <div className="space-y-4">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-16 w-full max-w-2xl" />
      <Skeleton className="h-48 w-full" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

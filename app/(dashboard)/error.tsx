"use client";

import { ErrorPanel } from "@/components/ui/error-panel";

// Shown instead of a blank page; the digest lets staff quote the server log entry.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorPanel
      title="This page could not be shown"
      message={`Something went wrong on our side. Try again; if it keeps happening, give your administrator this reference: ${error.digest ?? "none"}.`}
      action={
        <button type="button" onClick={reset} className="rounded-md bg-white px-3 py-1.5 text-sm font-medium ring-1 ring-slate-300">
          Try again
        </button>
      }
    />
  );
}

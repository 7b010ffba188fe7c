import Link from "next/link";

export default function RequestNotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">Request not found</h1>
      <p className="mt-2 text-slate-700">Neither this dashboard nor the service knows a fund request with that id. Check the id, or look in the list.</p>
      <Link href="/requests" className="mt-3 inline-block text-brand-700 underline">
        All requests
      </Link>
    </div>
  );
}

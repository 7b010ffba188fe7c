import Link from "next/link";

export default function PlanNotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">Plan not found</h1>
      <p className="mt-2 text-slate-700">This dashboard has no plan with that id. Check the link, or look in the list.</p>
      <Link href="/plans" className="mt-3 inline-block text-brand-700 underline">
        All plans
      </Link>
    </div>
  );
}

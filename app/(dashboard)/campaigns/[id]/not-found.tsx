import Link from "next/link";

export default function CampaignNotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">Campaign not found</h1>
      <p className="mt-2 text-slate-700">This dashboard has no campaign with that id. Check the link, or look in the list.</p>
      <Link href="/campaigns" className="mt-3 inline-block text-brand-700 underline">
        All campaigns
      </Link>
    </div>
  );
}

// The payer's status link: the first state rendered here, then polled by the browser (docs/architecture.md "Pay pages").
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";

import { PayStatus } from "@/components/pay/pay-status";
import { getDb } from "@/lib/db";
import { readPayStatus } from "@/lib/pay-pages/queries";

type Params = Promise<{ slug: string; token: string }>;

// Once per request: the metadata and the page share one read.
const loadStatus = cache(async (slug: string, token: string) => {
  // A token is a short random string: anything long is not one, and never reaches the database.
  if (token.length > 200) return null;
  return readPayStatus(await getDb(), slug.toLowerCase(), token);
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, token } = await params;
  const status = await loadStatus(slug, token);
  // The link is the payer's own: kept out of search engines.
  return { title: status ? status.title : "Page not found", robots: { index: false, follow: false } };
}

export default async function PayStatusPage({ params }: { params: Params }) {
  const { slug, token } = await params;
  const status = await loadStatus(slug, token);
  if (!status) notFound();
  return (
    <main className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <p className="mb-1 text-sm font-medium text-slate-600">{status.businessName}</p>
      <PayStatus slug={slug.toLowerCase()} token={token} initial={status} />
    </main>
  );
}

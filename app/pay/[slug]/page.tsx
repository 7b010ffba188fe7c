// The public pay page: no sign-in, the business's name and the page, nobody's personal data (docs/architecture.md "Pay pages").
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";

import { amountAsked } from "@/components/pay/naira";
import { PayForm } from "@/components/pay/pay-form";
import { SLUG_RE } from "@/lib/client/pay-pages/schemas";
import type { PublicPageState } from "@/lib/client/pay-pages/view";
import { getDb } from "@/lib/db";
import { viewPublicPage } from "@/lib/pay-pages/queries";

type Params = Promise<{ slug: string }>;

const CLOSED: Record<Exclude<PublicPageState, "open">, string> = {
  off: "This page is not taking payments right now.",
  expired: "This page has closed.",
  full: "This page has taken all the payments it can.",
  today_full: "This page has taken all it can for today. Try again tomorrow.",
};

// Once per request: the metadata and the page share one read, so a visit counts one view.
const loadPage = cache(async (slug: string) => {
  const key = slug.toLowerCase();
  return SLUG_RE.test(key) ? viewPublicPage(await getDb(), key) : null;
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const page = await loadPage((await params).slug);
  if (!page) return { title: "Page not found" };
  return { title: page.title, description: page.description || `Pay ${page.businessName}` };
}

export default async function PayPage({ params }: { params: Params }) {
  const page = await loadPage((await params).slug);
  if (!page) notFound();
  return (
    <main className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <p className="text-sm font-medium text-slate-600">{page.businessName}</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">{page.title}</h1>
      {page.description ? <p className="mt-2 text-base whitespace-pre-line text-slate-700">{page.description}</p> : null}
      <p className="mt-4 text-3xl font-semibold text-slate-900">
        <span className="sr-only">Amount: </span>
        {amountAsked(page.amount)}
      </p>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        {page.state === "open" ? (
          <PayForm slug={page.slug} amount={page.amount} fields={page.fields} />
        ) : (
          <p className="text-base text-slate-800">{CLOSED[page.state]}</p>
        )}
      </div>
      <p className="mt-6 text-sm text-slate-600">Nothing is paid until you approve the request in your payment app.</p>
    </main>
  );
}

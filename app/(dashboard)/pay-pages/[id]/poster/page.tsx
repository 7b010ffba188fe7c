import { notFound } from "next/navigation";

import { amountText } from "@/components/pay-pages/format";
import { PrintButton } from "@/components/pay-pages/print-button";
import { TextLink } from "@/components/ui/text-link";
import { requirePageStaff } from "@/lib/auth/page-guard";
import { getDb } from "@/lib/db";
import { malformedParam } from "@/lib/http/route-params";
import { getPayPage } from "@/lib/pay-pages/queries";
import { qrSvg } from "@/lib/pay-pages/qr";
import { getSettings } from "@/lib/settings/repo";

export const metadata = { title: "Pay page poster" };

// A pay page's printable A5 poster (docs/architecture.md "Pay pages"): the business, the page, its amount, its QR code
// and its address written out. Printing leaves the dashboard's header and this page's buttons off the paper.
const PRINT_CSS = `
@page { size: A5 portrait; margin: 10mm; }
@media print {
  body { background: #fff; }
  header, [data-testid="bad-signature-banner"] { display: none !important; }
  #main { max-width: none; padding: 0; }
}`;

export default async function PayPagePosterPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: raw } = await params;
  await requirePageStaff("pay_pages.read", `/pay-pages/${encodeURIComponent(raw)}/poster`);
  // A page id is a uuid: anything else is simply not found.
  if (malformedParam({ id: raw })) notFound();
  const db = await getDb();
  const page = await getPayPage(db, raw.toLowerCase());
  if (!page) notFound();
  const [{ businessName }, svg] = await Promise.all([getSettings(db), qrSvg(page.url)]);
  const fixed = "fixed" in page.amount;

  return (
    <div className="space-y-4 print:space-y-0">
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <TextLink href="/pay-pages" className="text-sm">
          All pay pages
        </TextLink>
        <PrintButton />
      </div>
      {page.state !== "open" ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 print:hidden">
          This page is {page.state === "off" ? "turned off" : page.state === "expired" ? "past its expiry" : "full"}: a payer who scans the code is told it
          takes no payments now.
        </p>
      ) : null}
      <article
        aria-labelledby="poster-title"
        className="mx-auto flex w-full max-w-[148mm] flex-col items-center gap-4 rounded-lg border border-slate-300 bg-white px-6 py-8 text-center print:max-w-none print:rounded-none print:border-0 print:px-0 print:py-0"
      >
        <p className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{businessName}</p>
        <h1 id="poster-title" className="text-3xl font-bold text-balance text-slate-950">
          {page.title}
        </h1>
        {page.description ? <p className="max-w-prose text-slate-700">{page.description}</p> : null}
        <p className="text-2xl font-semibold text-slate-950 tabular-nums">
          {fixed ? amountText(page.amount) : <>Any amount from {amountText(page.amount).replace(" – ", " to ")}</>}
        </p>
        <div
          role="img"
          aria-label={`QR code of ${page.url}`}
          className="w-full max-w-[80mm] [&>svg]:block [&>svg]:h-auto [&>svg]:w-full"
          // The qrcode package's drawing (paths only) of the page's URL, made on the server: nothing typed reaches it as markup.
          dangerouslySetInnerHTML={{ __html: svg }}
        />
        <p className="text-lg font-medium text-slate-900">Scan to pay: enter your tag, then accept the request in your payments app.</p>
        <p className="text-sm text-slate-700">
          No camera? Open <span className="font-mono break-all text-slate-950">{page.url}</span>
        </p>
      </article>
    </div>
  );
}

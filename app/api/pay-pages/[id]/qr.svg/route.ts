import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { otherMethods } from "@/lib/http/other-methods";
import { getPayPage } from "@/lib/pay-pages/queries";
import { qrSvg } from "@/lib/pay-pages/qr";

export const dynamic = "force-dynamic";

// A pay page's QR code as SVG, to print or put on a site (docs/architecture.md "Pay pages"); the dashboard links it.
export const GET = withStaff<{ id: string }>("pay_pages.read", async (_request, { db, params }) => {
  const page = await getPayPage(db, params.id.toLowerCase());
  if (!page) throw notFound("No such pay page.");
  return new Response(await qrSvg(page.url), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Content-Disposition": `inline; filename="pay-${page.slug}.svg"`,
      "Cache-Control": "private, no-cache",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

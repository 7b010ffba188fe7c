import { withStaff } from "@/lib/auth/guard";
import { notFound } from "@/lib/http/api-error";
import { otherMethods } from "@/lib/http/other-methods";
import { getPayPage } from "@/lib/pay-pages/queries";
import { qrPng } from "@/lib/pay-pages/qr";

export const dynamic = "force-dynamic";

// A pay page's QR code as PNG, for tools that take no SVG (docs/architecture.md "Pay pages"); the dashboard links it.
export const GET = withStaff<{ id: string }>("pay_pages.read", async (_request, { db, params }) => {
  const page = await getPayPage(db, params.id.toLowerCase());
  if (!page) throw notFound("No such pay page.");
  return new Response(new Uint8Array(await qrPng(page.url)), {
    headers: {
      "Content-Type": "image/png",
      "Content-Disposition": `inline; filename="pay-${page.slug}.png"`,
      "Cache-Control": "private, no-cache",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { withStaff } from "@/lib/auth/guard";
import { exceptionListFromSearch } from "@/lib/client/exceptions/view";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { readExceptionPage } from "@/lib/exceptions/queries";

export const dynamic = "force-dynamic";

/** The exceptions inbox (docs/architecture.md "Closing the books"): ?status=open|resolved&kind=&page=; an unusable value reads as its default. */
export const GET = withStaff("exceptions.read", async (request, { db }) => {
  const params = request.nextUrl.searchParams;
  return ok(
    await readExceptionPage(
      db,
      exceptionListFromSearch((name) => params.get(name)),
    ),
    "OK",
    200,
    { "Cache-Control": "no-store" },
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

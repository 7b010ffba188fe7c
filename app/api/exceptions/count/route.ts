import { withStaff } from "@/lib/auth/guard";
import { countOpenExceptions } from "@/lib/exceptions/queries";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** The navigation's badge: open exceptions, counted to 99 (`capped`: more). */
export const GET = withStaff("exceptions.read", async (_request, { db }) => ok(await countOpenExceptions(db), "OK", 200, { "Cache-Control": "no-store" }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

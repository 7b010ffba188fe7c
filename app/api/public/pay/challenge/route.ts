import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { withPublic } from "@/lib/http/public-route";
import { newChallenge } from "@/lib/pay-pages/challenge";

export const dynamic = "force-dynamic";

/** A fresh proof-of-work challenge for a pay page's form (valid 5 minutes, spent once). */
export const GET = withPublic(async () => ok(await newChallenge(), "OK", 200, { "Cache-Control": "no-store" }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

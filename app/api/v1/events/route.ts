import { listEvents } from "@/lib/api/v1/ops/reads";
import { parseQuery } from "@/lib/api/v1/parse";
import { withApiKey } from "@/lib/api-keys/guard";
import { readEventLog } from "@/lib/events/log";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

export const GET = withApiKey(listEvents, async (request, { db, actor }) => ok(await readEventLog(db, actor, parseQuery(listEvents, request))));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

import { getBalance } from "@/lib/api/v1/ops/reads";
import { withApiKey } from "@/lib/api-keys/guard";
import { getBalanceView } from "@/lib/balance/cache";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/other-methods";
import { getApiService } from "@/lib/service/app-client";

export const dynamic = "force-dynamic";

// The shared cache, a read it needs spent in the API's class.
export const GET = withApiKey(getBalance, async () => ok(await getBalanceView({ service: getApiService() })));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

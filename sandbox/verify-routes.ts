// The verify host (4.4): confirms a transaction the webhook announced.
import { fail, ok } from "./http-util";
import { route, type Route } from "./router";
import type { Store } from "./state";
import type { AmountUnit } from "./types";
import { verifiedTransaction } from "./views";

export function verifyRoutes(store: Store, unit: AmountUnit): Route[] {
  return [
    route("GET", "/api/v1/transaction/:transaction_uuid", ({ params }) => {
      const uuid = params.transaction_uuid ?? "";
      const transaction = store.transactions.get(uuid);
      if (!transaction) return fail(404, `No transaction with uuid ${uuid}`);
      return ok("Transaction verified", verifiedTransaction(transaction, unit));
    }),
  ];
}

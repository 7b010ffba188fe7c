// The API host's part of the interface (4.1–4.3), behind the bearer key.
import { fail, HttpError, ok, readJson } from "./http-util";
import type { RequestActions } from "./request-actions";
import { parsePeerRequest } from "./request-body";
import { route, type Route } from "./router";
import type { Store } from "./state";
import type { AmountUnit } from "./types";
import { balanceView, fundRequestView } from "./views";

export const PEER_REQUESTS = "/api/v1/transfer/request/peer";

export function apiRoutes(store: Store, actions: RequestActions, unit: AmountUnit): Route[] {
  return [
    route("POST", PEER_REQUESTS, async ({ req }) => {
      const input = parsePeerRequest(await readJson(req, true), unit);
      const request = actions.create(input);
      return ok("Fund request sent", { request_id: request.id });
    }),
    route("GET", `${PEER_REQUESTS}/:request_id`, ({ params }) => {
      const id = requestIdParam(params.request_id);
      const request = store.requests.get(id);
      if (!request) return fail(404, `No fund request with id ${id}`);
      return ok("Fund request retrieved", fundRequestView(request));
    }),
    route("GET", "/api/v1/business/balance", () => ok("Balance retrieved", balanceView(store.wallets))),
  ];
}

export function requestIdParam(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new HttpError(404, `No fund request with id ${raw ?? ""}`);
  return Number(raw);
}

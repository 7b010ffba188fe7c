// Sandbox-only control API (no bearer key): act as the consumer, inject faults, read stats, deliveries and the mailbox.
import { requestIdParam } from "./api-routes";
import { parseFault, type FaultTable } from "./faults";
import { fail, HttpError, isRecord, jsonReply, mediaType, ok, readBody, readJson, redirect, type Reply } from "./http-util";
import type { Mailbox } from "./mailbox";
import type { RequestActions } from "./request-actions";
import { route, type RouteContext, type Route } from "./router";
import type { Store } from "./state";
import type { CallStats } from "./stats";
import type { AmountUnit, FundRequest } from "./types";
import { fundRequestView, paymentEvent, verifiedTransaction } from "./views";
import type { WebhookSender } from "./webhook-sender";

interface ControlDeps {
  store: Store;
  actions: RequestActions;
  faults: FaultTable;
  stats: CallStats;
  sender: WebhookSender;
  mailbox: Mailbox;
  unit: AmountUnit;
  apiUrl: () => string;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function controlRoutes(deps: ControlDeps): Route[] {
  const { store, actions, faults, stats, sender, mailbox, unit } = deps;

  // The consumer page's forms ask for a redirect back to it, carrying the outcome as a notice.
  // A JSON body may carry options: `{ "webhook": false }` accepts without sending the delivery (a lost webhook); the
  // consumer page's third button sends `webhook=0` in its form for the same.
  async function decide(ctx: RouteContext, act: (id: number, options: { webhook?: boolean }) => Reply): Promise<Reply> {
    let form = new URLSearchParams();
    let reply: Reply;
    try {
      const text = await readBody(ctx.req);
      // A JSON object is read as one whatever the content type says (`curl -d` labels it a form); else the form's fields.
      const json = mediaType(ctx.req) === "application/json" || text.trimStart().startsWith("{");
      if (!json && mediaType(ctx.req) === "application/x-www-form-urlencoded") form = new URLSearchParams(text);
      const body: unknown = json && text.trim() !== "" ? parseJsonText(text) : {};
      const options = (isRecord(body) && body.webhook === false) || form.get("webhook") === "0" ? { webhook: false } : {};
      reply = act(requestIdParam(ctx.params.id), options);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      reply = fail(error.status, error.message);
    }
    const wantsRedirect = ctx.query.get("redirect") === "1" || form.get("redirect") === "1";
    if (!wantsRedirect) return reply;
    const envelope: unknown = JSON.parse(reply.body);
    const notice = isRecord(envelope) && typeof envelope.message === "string" ? envelope.message : "Done";
    return redirect(`/?notice=${encodeURIComponent(notice)}`);
  }

  const listed = (r: FundRequest) => ({ ...fundRequestView(r), transaction_uuid: r.transactionUuid });

  return [
    route("GET", "/sandbox/requests", () => ok("Fund requests", { requests: [...store.requests.values()].map(listed) })),
    route("POST", "/sandbox/requests/:id/accept", (ctx) =>
      decide(ctx, (id, options) => {
        const { request, transaction } = actions.accept(id, options);
        return ok(`Accepted request ${id} from ${request.requestedBy.name}`, {
          request: fundRequestView(request),
          transaction: paymentEvent(transaction, unit, deps.apiUrl()),
        });
      }),
    ),
    route("POST", "/sandbox/requests/:id/decline", (ctx) =>
      decide(ctx, (id) => {
        const request = actions.decline(id);
        return ok(`Declined request ${id} from ${request.requestedBy.name}`, { request: fundRequestView(request) });
      }),
    ),
    route("GET", "/sandbox/faults", () => ok("Active faults", { faults: faults.list() })),
    route("POST", "/sandbox/faults", async ({ req }) => {
      faults.add(parseFault(await readJson(req, false)));
      return ok("Fault added", { faults: faults.list() });
    }),
    route("POST", "/sandbox/faults/clear", () => {
      faults.clear();
      return ok("Faults cleared", { faults: [] });
    }),
    route("GET", "/sandbox/stats", () => jsonReply(200, stats.snapshot())),
    route("POST", "/sandbox/stats/reset", () => {
      stats.reset();
      return ok("Stats reset", {});
    }),
    route("GET", "/sandbox/webhooks", () => ok("Webhook deliveries", { deliveries: sender.deliveries })),
    // What the SMTP sink received, newest first, as a bare list; `?to=` keeps one recipient's (case-insensitive).
    route("GET", "/sandbox/mail", ({ query }) => jsonReply(200, mailbox.list(query.get("to")))),
    route("DELETE", "/sandbox/mail", () => {
      mailbox.clear();
      return ok("Mailbox emptied", {});
    }),
    route("POST", "/sandbox/transactions/:uuid/override", async ({ req, params }) => {
      const uuid = params.uuid ?? "";
      const transaction = store.transactions.get(uuid);
      if (!transaction) return fail(404, `No transaction with uuid ${uuid}`);
      const body = await readJson(req, false);
      if (!isRecord(body)) return fail(400, "Request body must be a JSON object");
      const { amount } = body;
      if (amount !== undefined && !(typeof amount === "number" && Number.isFinite(amount))) {
        return fail(400, "amount must be a number (omit it to remove the override)");
      }
      transaction.verifyAmountOverride = typeof amount === "number" ? amount : null;
      return ok("Verify answer overridden", verifiedTransaction(transaction, unit));
    }),
  ];
}

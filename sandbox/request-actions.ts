// The fund-request lifecycle: create, accept (settle + webhook) and decline, shared by every trigger.
import { randomUUID } from "node:crypto";
import { feeKobo } from "./amounts";
import { HttpError } from "./http-util";
import type { PeerRequestInput } from "./request-body";
import { consumerFor, mainWallet, paymentsFrom, type Store } from "./state";
import type { TimerSet } from "./timers";
import type { AmountUnit, FundRequest, Transaction } from "./types";
import { paymentEvent } from "./views";
import type { WebhookSender } from "./webhook-sender";

/** A tag whose first label is `accept` or `decline` decides by itself after a moment (accept.ada, decline.42). */
export function autoDecision(tag: string): "accept" | "decline" | null {
  const first = tag.toLowerCase().split(".", 1)[0];
  return first === "accept" ? "accept" : first === "decline" ? "decline" : null;
}

interface ActionDeps {
  store: Store;
  unit: AmountUnit;
  apiUrl: () => string;
  webhookUrl: string | undefined;
  sender: WebhookSender;
  timers: TimerSet;
  autoDelayMs: number;
  log: (line: string) => void;
}

export interface RequestActions {
  create(input: PeerRequestInput): FundRequest;
  /** `webhook: false` settles without sending the delivery: a lost webhook, for the books' exceptions (docs/architecture.md "Closing the books"). */
  accept(id: number, options?: { webhook?: boolean }): { request: FundRequest; transaction: Transaction };
  decline(id: number): FundRequest;
}

export function createRequestActions(deps: ActionDeps): RequestActions {
  const { store } = deps;

  function pending(id: number): FundRequest {
    const request = store.requests.get(id);
    if (!request) throw new HttpError(404, `No fund request with id ${id}`);
    if (request.status !== "pending") throw new HttpError(409, `Fund request ${id} is already ${request.status}`);
    return request;
  }

  function settle(request: FundRequest): Transaction {
    const fees = feeKobo(request.amountKobo);
    const transaction: Transaction = {
      uuid: randomUUID(),
      requestId: request.id,
      amount: request.amount,
      amountKobo: request.amountKobo,
      feesKobo: fees,
      settledKobo: request.amountKobo - fees,
      description: request.description,
      customer: request.sentTo,
      frequency: paymentsFrom(store, request.sentTo.tag) + 1,
      createdAt: request.updatedAt,
      verifyAmountOverride: null,
    };
    store.transactions.set(transaction.uuid, transaction);
    mainWallet(store).balanceMilliKobo += transaction.settledKobo * 1000n;
    return transaction;
  }

  function notify(request: FundRequest, transaction: Transaction): void {
    const target = deps.webhookUrl ?? request.meta.notificationUrl;
    if (typeof target !== "string") {
      deps.log(`request ${request.id} accepted; no webhook URL, nothing sent`);
      return;
    }
    const payload = paymentEvent(transaction, deps.unit, deps.apiUrl());
    deps.sender.send(target, payload, { requestId: request.id, transactionUuid: transaction.uuid });
  }

  const actions: RequestActions = {
    create(input) {
      const consumer = consumerFor(store, input.tag);
      if (!consumer) throw new HttpError(404, `No user found with tag ${input.tag}`);
      const now = new Date().toISOString();
      const request: FundRequest = {
        id: store.nextRequestId++,
        amount: input.amount,
        amountKobo: input.amountKobo,
        description: input.description,
        status: "pending",
        requestedBy: { ...store.business },
        sentTo: consumer,
        meta: input.meta,
        createdAt: now,
        updatedAt: now,
        transactionUuid: null,
      };
      store.requests.set(request.id, request);
      const decision = autoDecision(consumer.tag);
      if (decision) deps.timers.later(deps.autoDelayMs, () => ignoreIfAlreadyDecided(() => actions[decision](request.id)));
      return request;
    },
    accept(id, options = {}) {
      const request = pending(id);
      request.status = "accepted";
      request.updatedAt = new Date().toISOString();
      const transaction = settle(request);
      request.transactionUuid = transaction.uuid;
      deps.log(`request ${id} accepted by ${request.sentTo.tag}; transaction ${transaction.uuid}`);
      if (options.webhook === false) deps.log(`request ${id}: its webhook is not sent (asked for a lost webhook)`);
      else notify(request, transaction);
      return { request, transaction };
    },
    decline(id) {
      const request = pending(id);
      request.status = "declined";
      request.updatedAt = new Date().toISOString();
      deps.log(`request ${id} declined by ${request.sentTo.tag}`);
      return request;
    },
  };

  // A person may have acted on the request before the auto-user did; that is not an error.
  function ignoreIfAlreadyDecided(act: () => unknown): void {
    try {
      act();
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
    }
  }

  return actions;
}

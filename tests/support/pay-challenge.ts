// The unit suites' kit for the pay pages' public form (tests/pay-pages; docs/architecture.md "Pay pages"): a fresh
// challenge of this app's, solved as a browser would (tests/support/pay-solve.ts), a page's body, the form's POST as
// callRoute takes it, and the send pass.
import { randomBytes } from "node:crypto";

import { payPageCreateSchema, type PayPageCreate, type PaySubmit } from "@/lib/client/pay-pages/schemas";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { newChallenge } from "@/lib/pay-pages/challenge";
import { sendPayPageSubmissions, type PayPassResult } from "@/lib/pay-pages/send";
import { requestDeps } from "@/lib/requests/deps";
import { getPublicService } from "@/lib/service/app-client";

import { POST as deliver } from "@/app/api/webhooks/peer-transfer/route";
import { paymentDeps } from "@/lib/payments/deps";
import { linkPayment } from "@/lib/payments/link";

import type { CallInit } from "./in-process-app";
import type { SandboxControl } from "./sandbox-control";
import { SIGNATURE_HEADER } from "./sign-delivery";
import { waitFor } from "./wait-for";
import { solvedChallenge } from "./pay-solve";

export { solvedChallenge } from "./pay-solve";

/** A challenge of this app's (its AUTH_SECRET), solved: what the form sends. `now` dates it (an expired one, say). */
export async function freshAltcha(now = Date.now()): Promise<string> {
  return solvedChallenge(await newChallenge(now));
}

/** A pay page's body as the dashboard sends it, with a fresh slug and a fixed ₦5,000 unless `over` says otherwise. */
export function payPageInput(over: Record<string, unknown> = {}): PayPageCreate {
  return payPageCreateSchema.parse({ slug: `page-${randomBytes(4).toString("hex")}`, title: "Estate dues", amount: { fixed: "5000" }, ...over });
}

/** The public form's body: the tag, a solved challenge, and any answers. */
export type PayBody = Partial<PaySubmit> & Pick<PaySubmit, "tag" | "altcha">;

/**
 * callRoute's init for POST /api/public/pay/:slug as the page's own script sends it: Origin the app's, and the
 * caller's address in X-Forwarded-For (read when the app runs with TRUST_PROXY=1).
 */
export function payInit(slug: string, body: PayBody, address: string): CallInit<{ slug: string }> {
  return { method: "POST", headers: { origin: new URL(getConfig().appUrl).origin, "x-forwarded-for": address }, body, params: { slug } };
}

/** One pass of the pay pages' sender as its job runs it: the app's `public` service client, no fetch gate. */
export function payPass(db: Db, max = 100, now?: () => Date): Promise<PayPassResult> {
  return sendPayPageSubmissions({ ...requestDeps(db, getPublicService()), fetchGate: undefined }, max, undefined, now);
}

/**
 * The environment for inProcessApp in the pay pages' suites: TRUST_PROXY=1 so X-Forwarded-For gives each caller its
 * own address; an APP_URL nobody listens on (the sandbox's webhook deliveries to it fail at once, and the suites hand
 * them to the webhook route themselves); a service limit so high no pass waits for the budget.
 */
export const PAY_APP_ENV = { TRUST_PROXY: "1", APP_URL: "http://127.0.0.1:9", SERVICE_RATE_LIMIT_PER_MIN: "60000" } as const;

/**
 * The payer accepts `requestId` in the sandbox's app; the service's signed notice (whose delivery to the suites'
 * unreachable APP_URL failed) is handed to the webhook route as sent, and linked as the payment's follow-up job would.
 */
export async function acceptAndLink(db: Db, control: SandboxControl, requestId: string): Promise<void> {
  await control.accept(requestId);
  const delivery = await waitFor("the sandbox's payment notice", async () => (await control.deliveries()).find((d) => String(d.request_id) === requestId));
  const received = await deliver(
    new Request("http://localhost/api/webhooks/peer-transfer", {
      method: "POST",
      headers: { "content-type": "application/json", [SIGNATURE_HEADER]: delivery.signature },
      body: delivery.body,
    }),
  );
  if (received.status !== 200) throw new Error(`the payment notice was answered ${received.status}`);
  const linked = await linkPayment(paymentDeps(db), delivery.transaction_uuid);
  if (!linked.linked) throw new Error(`the payment was not linked: ${JSON.stringify(linked)}`);
}

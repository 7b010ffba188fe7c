import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { POST as postPay } from "@/app/api/public/pay/[slug]/route";
import { GET as getStatus } from "@/app/api/public/pay/[slug]/s/[token]/route";
import type { PayStatusView } from "@/lib/client/pay-pages/view";
import { fundRequests, payPageSubmissions } from "@/lib/db/schema";
import { createPayPage } from "@/lib/pay-pages/manage";
import { getPayPage } from "@/lib/pay-pages/queries";
import { payPageKey } from "@/lib/requests/keys";
import { callRoute, inProcessApp } from "@/tests/support/in-process-app";
import { acceptAndLink, freshAltcha, PAY_APP_ENV, payInit, payPageInput, payPass } from "@/tests/support/pay-challenge";
import { newTag } from "@/tests/support/request-deps";
import { sandboxControl } from "@/tests/support/sandbox-control";
import { fakeAddress } from "@/tests/support/sign-in";

// A payer's whole way through a pay page against the sandbox (docs/architecture.md "Pay pages"): the form queues the
// submission, the send job asks the service (the page's title as the description, the reference field as the
// business's reference, the page's slug in the service's meta), the payer accepts, the service's signed notice comes
// in through the webhook route, and the status link reads paid while the page counts one conversion.

const app = inProcessApp(PAY_APP_ENV);

describe("a pay page's happy path", () => {
  it("sends the request the page describes, and once the payer accepts the link reads paid and the page counts it", async () => {
    const db = await app.db();
    const control = sandboxControl(app.sandbox);
    const made = await createPayPage(
      db,
      await app.person("operator"),
      payPageInput({
        title: "November estate dues",
        amount: { fixed: "7500.50" },
        fields: [
          { label: "House number", required: true, reference: true },
          { label: "Note", required: false },
        ],
        successMessage: "Thank you, neighbour.",
      }),
    );
    if (made.kind !== "created") throw new Error(`page: ${made.kind}`);
    const { id: pageId, slug } = made.page;
    const tag = newTag("ngozi");

    const answer = await callRoute<{ statusUrl: string }>(
      postPay,
      `/api/public/pay/${slug}`,
      payInit(slug, { tag, fields: ["B14", "for the gate"], altcha: await freshAltcha() }, fakeAddress()),
    );
    expect(answer.status, answer.json.message).toBe(202);
    const token = answer.json.data.statusUrl.split("/").pop() ?? "";
    const status = () => callRoute<PayStatusView>(getStatus, `/api/public/pay/${slug}/s/${token}`, { params: { slug, token } });
    expect((await status()).json.data).toMatchObject({ state: "waiting", title: "November estate dues", amount: "7500.50", successMessage: null });

    expect(await payPass(db)).toMatchObject({ handled: 1, more: false });
    const [submission] = await db.select().from(payPageSubmissions).where(eq(payPageSubmissions.token, token));
    expect(submission?.status).toBe("sent");
    const requests = await db.select().from(fundRequests).where(eq(fundRequests.tag, tag));
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({
      id: submission?.fundRequestId,
      idempotencyKey: payPageKey(submission?.id ?? ""),
      status: "pending",
      amount: "7500.50",
      description: "November estate dues",
      businessReference: "B14",
    });
    const requestId = request?.requestId ?? "";
    const atService = await control.request(requestId);
    expect(atService).toMatchObject({ amount: 7500.5, description: "November estate dues", requested_sent_to: { tag } });
    expect(atService?.meta).toMatchObject({ payPage: slug, transactionReference: request?.reference });
    expect((await status()).json.data.state).toBe("waiting");

    // The payer accepts in their app; the service's signed notice (its delivery to our unreachable URL failed) is
    // handed to the webhook route as the service sent it, and the payment follow-up links it as its job would.
    await acceptAndLink(db, control, requestId);

    expect((await status()).json.data).toMatchObject({ state: "paid", successMessage: "Thank you, neighbour." });
    const counts = (await getPayPage(db, pageId))?.counts;
    expect(counts).toMatchObject({ submissions: 1, requests: 1, accepted: 1, declined: 0, collected: "7425.49", conversion: 1 });
  });
});

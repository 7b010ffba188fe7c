import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fundRequests, payments } from "@/lib/db/schema";
import { linkPayment } from "@/lib/payments/link";
import { getRequestDetail } from "@/lib/requests/refresh";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";

import { parseCampaignCsv } from "./parse";
import { getCampaignView, listCampaignRows } from "./queries";
import { createCampaign, transitionCampaign } from "./repo";
import { campaignResultsCsv } from "./results-csv";
import { sendCampaignRows } from "./send";

// The results file follows the page's filter and says who paid, how much and when (in the business's time zone).

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => sb.close());

describe.each(dbTargets())("campaign results on $name", (target) => {
  const database = useTestDatabase(target);

  it("lists the people not paid under not_paid, and the payer, amount paid and payment time of a paid row", async () => {
    const deps = requestDeps(database.db, sb, { service: { getRetries: 0 } });
    const operator = await insertStaff(database.db, "Results Operator");
    const [paid, declined, waiting] = [newTag("paid"), newTag("declined"), newTag("waiting")];
    const parsed = parseCampaignCsv(new TextEncoder().encode(`tag,amount,description\n${paid},100,Dues\n${declined},200,Dues\n${waiting},300,Dues\n`));
    if (!parsed.ok) throw new Error(parsed.message);
    const id = await createCampaign(database.db, "Results", parsed.rows, operator.id);
    await transitionCampaign(database.db, id, "start", operator.id);
    expect(await sendCampaignRows(deps, 10)).toMatchObject({ sent: 3 });

    // Row 1 is paid (its notice recorded and linked), row 2 declined, row 3 still waits.
    const uuid = crypto.randomUUID();
    await database.db.insert(payments).values({
      uuid,
      type: "peer-transfer.success",
      amount: "100.00",
      actualAmount: "100.00",
      settledAmount: "99.00",
      fees: "1.00",
      description: "Dues",
      customerName: "Ada Paid",
      customerTag: paid,
      peerTag: paid,
      receivedAt: new Date("2026-03-10T23:05:00Z"),
    });
    expect(await linkPayment(deps, uuid)).toMatchObject({ linked: true });
    await database.db.update(fundRequests).set({ status: "declined" }).where(eq(fundRequests.tag, declined));

    const notPaid = await listCampaignRows(database.db, id, { status: "not_paid", page: 1 });
    expect(notPaid.items.map((r) => [r.tag, r.status])).toEqual([
      [declined, "declined"],
      [waiting, "sent"],
    ]);
    const view = await getCampaignView(database.db, id, 60);
    // Counts and amounts by row status: the declined row is asked but neither accepted, collected nor outstanding.
    expect(view?.counts).toMatchObject({ total: 3, sent: 1, accepted: 1, declined: 1, failed: 0 });
    // collected is what the linked payment settled (99.00 of the 100.00 asked), not the amount asked.
    expect(view?.amounts).toEqual({ asked: "600.00", accepted: "100.00", collected: "99.00", outstanding: "300.00" });
    const declinedRows = await listCampaignRows(database.db, id, { status: "declined", page: 1 });
    expect(declinedRows.items.map((r) => [r.tag, r.amount, r.status])).toEqual([[declined, "200.00", "declined"]]);

    const lines = (await campaignResultsCsv(database.db, id, "Africa/Lagos")).trim().split("\r\n");
    expect(lines[0]).toBe("line,tag,reference,amount,description,status,request_id,error,payer_name,amount_paid,amount_settled,paid_at");
    // Line 2: the file's first row under its header, as a spreadsheet numbers it.
    expect(lines[1]).toMatch(new RegExp(`^2,${paid},,100.00,Dues,accepted,\\d+,,Ada Paid,100.00,99.00,2026-03-11T00:05:00\\+01:00$`));
    expect(lines).toHaveLength(4);
    const filtered = (await campaignResultsCsv(database.db, id, "Africa/Lagos", "not_paid")).trim().split("\r\n");
    expect(filtered.slice(1).map((l) => l.split(",")[1])).toEqual([declined, waiting]);

    // A request a campaign made links back to it on its own page.
    const requestId = notPaid.items[1]?.requestId ?? "";
    expect(await getRequestDetail(deps, requestId)).toMatchObject({ kind: "found", request: { requestId, campaign: { id, name: "Results" } } });
  });
});

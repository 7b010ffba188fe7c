import { readFileSync } from "node:fs";
import path from "node:path";

import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { campaignRows, campaigns, fundRequests } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff } from "@/tests/support/request-deps";

import { campaignOfKey, campaignRowKey, clientKey, lacksClientKey } from "./keys";
import { idempotencyKeySchema } from "@/lib/client/requests/schemas";

// Client keys and the dashboard's own keys never meet: every key a client may send maps outside the
// campaign namespace, and the migration moves the keys stored before into the client namespace.

describe("a request body without its key (answered idempotency_key_missing)", () => {
  it("is an object with no idempotencyKey, or a null or empty one; a key of any other value, or no object, is not", () => {
    for (const body of [{}, { tag: "ada.obi" }, { idempotencyKey: null }, { idempotencyKey: "" }])
      expect(lacksClientKey(body), JSON.stringify(body)).toBe(true);
    for (const body of [{ idempotencyKey: "abc12345" }, { idempotencyKey: "x" }, { idempotencyKey: 5 }, null, [], "text", 3]) {
      expect(lacksClientKey(body), JSON.stringify(body)).toBe(false);
    }
  });
});

describe("idempotency key namespaces", () => {
  it("no client key is stored as any key the dashboard makes", () => {
    const campaign = "0b9c7a52-6f4e-4d1a-9e33-2f1d5c8b7a60";
    const internal = campaignRowKey(campaign, 1);
    // The exact key a campaign row uses is a valid client key, yet stored elsewhere.
    expect(idempotencyKeySchema.safeParse(internal).success).toBe(true);
    expect(clientKey(internal)).not.toBe(internal);
    expect(clientKey(internal).startsWith("client:")).toBe(true);
    expect(internal.startsWith("client:")).toBe(false);
  });

  it("a campaign row's key names its campaign (for request.updated); a client's never does, even one spelled alike", () => {
    const campaign = "0b9c7a52-6f4e-4d1a-9e33-2f1d5c8b7a60";
    expect(campaignOfKey(campaignRowKey(campaign, 12))).toBe(campaign);
    expect(campaignOfKey(clientKey(campaignRowKey(campaign, 12)))).toBeNull();
    expect(campaignOfKey(clientKey("abcdefgh"))).toBeNull();
    expect(campaignOfKey(null)).toBeNull();
  });
});

const MIGRATION = readFileSync(path.join(process.cwd(), "drizzle", "0008_i19_campaigns.sql"), "utf8");
const MOVE_CLIENT_KEYS = MIGRATION.slice(MIGRATION.indexOf('UPDATE "fund_requests"')).trim();

describe.each(dbTargets())("the key migration on $name", (target) => {
  const database = useTestDatabase(target);
  let by: { id: string };
  beforeAll(async () => {
    by = await insertStaff(database.db, "Migration Operator");
  });

  it("moves client keys to client:<key> and leaves the keys of real campaign rows to them", async () => {
    const [campaign] = await database.db.insert(campaigns).values({ name: "Old", createdBy: by.id }).returning({ id: campaigns.id });
    if (!campaign) throw new Error("campaign insert returned nothing");
    await database.db
      .insert(campaignRows)
      .values({ campaignId: campaign.id, row: 1, tag: "ada.obi", amountText: "10", amountNaira: "10.00", description: "x", status: "sent" });
    const base = { tag: "ada.obi", amount: "10.00", description: "x", status: "pending" as const, createdBy: by.id };
    const keys = {
      client: "form_key_0001",
      campaign: campaignRowKey(campaign.id, 1),
      // Looks like a campaign's key, but no such row: a client's.
      lookalike: campaignRowKey(campaign.id, 2),
      bogus: "cmp_not-a-uuid_1",
    };
    for (const [label, key] of Object.entries(keys))
      await database.db.insert(fundRequests).values({ ...base, reference: `fb_mig_${label}`, idempotencyKey: key });
    await database.db.insert(fundRequests).values({ ...base, reference: "fb_mig_none" });
    // As the migration ran it (its last statement).
    await database.db.execute(sql.raw(MOVE_CLIENT_KEYS));
    const stored = async (reference: string) =>
      (await database.db.select({ key: fundRequests.idempotencyKey }).from(fundRequests).where(eq(fundRequests.reference, reference)))[0]?.key;
    expect(await stored("fb_mig_client")).toBe(clientKey(keys.client));
    expect(await stored("fb_mig_campaign")).toBe(keys.campaign);
    expect(await stored("fb_mig_lookalike")).toBe(clientKey(keys.lookalike));
    expect(await stored("fb_mig_bogus")).toBe(clientKey(keys.bogus));
    expect(await stored("fb_mig_none")).toBeNull();
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { MAX_ENDPOINTS, type EndpointCreate } from "@/lib/client/outbound/schemas";
import { auditLog } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { newAdmin } from "@/tests/support/outbound";

import { countEndpoints } from "./endpoints";
import { createEndpoint, deleteEndpoint } from "./manage";

const endpointNo = (i: number): EndpointCreate => ({ url: `https://erp-${i}.example.test/hooks`, description: `no. ${i}`, eventTypes: "all", enabled: true });

describe.each(dbTargets())("the cap of 20 webhook endpoints on $name", (target) => {
  const database = useTestDatabase(target, { perTest: true });

  it("makes 20 endpoints one after another and answers the 21st with the cap; deleting one makes room again", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    for (let i = 1; i <= MAX_ENDPOINTS; i++) expect((await createEndpoint(db, actor, endpointNo(i))).kind).toBe("created");
    expect(await createEndpoint(db, actor, endpointNo(21))).toEqual({ kind: "limit" });
    expect(await countEndpoints(db)).toBe(MAX_ENDPOINTS);

    const [first] = await db.select().from(auditLog).where(eq(auditLog.action, "webhook_endpoint.created")).limit(1);
    if (!first?.target) throw new Error("no audit row for the endpoints made");
    expect(await deleteEndpoint(db, actor, first.target)).toEqual({ kind: "deleted" });
    expect((await createEndpoint(db, actor, endpointNo(22))).kind).toBe("created");
    expect(await countEndpoints(db)).toBe(MAX_ENDPOINTS);
  });

  it("leaves exactly 20 when 25 are made at once from none: the other 5 answer the cap, and only the 20 are audited", async () => {
    const db = database.db;
    const actor = await newAdmin(db);
    const outcomes = await Promise.all(Array.from({ length: 25 }, (_, i) => createEndpoint(db, actor, endpointNo(i + 1))));
    expect(outcomes.filter((o) => o.kind === "created")).toHaveLength(MAX_ENDPOINTS);
    expect(outcomes.filter((o) => o.kind === "limit")).toHaveLength(5);
    expect(await countEndpoints(db)).toBe(MAX_ENDPOINTS);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "webhook_endpoint.created"))).toHaveLength(MAX_ENDPOINTS);
  });
});

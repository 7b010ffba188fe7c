import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { fundRequests } from "@/lib/db/schema";
import { subscribe, type LiveEvent } from "@/lib/live/bus";
import { ServiceError } from "@/lib/service/errors";
import type { FundRequest } from "@/lib/service/schemas";
import type { Sandbox } from "@/sandbox/server";
import { budgetGate } from "@/lib/service/budget-gate";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { FETCH_CALL, FETCH_PATH, sandboxControl, type SandboxControl } from "@/tests/support/sandbox-control";

import { createFundRequest } from "./create";
import type { RequestDeps } from "./deps";
import { STATUS_FRESH_MS, createFetchGate } from "./fetch-gate";
import { applyFetched, getRequestDetail } from "./refresh";
import { findRequestByServiceId } from "./repo";
import { applyServiceState } from "./status";
import { newRequestSchema } from "@/lib/client/requests/schemas";
import { settleLive } from "@/tests/support/live";

// Reading one request (local record refreshed from the service, or the service's own record) and the
// forward-only rule for what the service says, against the sandbox and a real database.

let sb: Sandbox;
let control: SandboxControl;

beforeAll(async () => {
  sb = await startTestSandbox();
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

describe.each(dbTargets())("request detail and forward-only status on $name", (target) => {
  const database = useTestDatabase(target, { live: true });
  let deps: RequestDeps;
  let operator: { id: string; name: string };

  beforeAll(async () => {
    deps = requestDeps(database.db, sb);
    operator = await insertStaff(database.db, "Ola Operator");
  });
  beforeEach(async () => control.reset());

  /** A pending request sent through our code to a fresh consumer who waits for a person. */
  async function sendPending(label: string, amount = "250.00") {
    const outcome = await createFundRequest(
      deps,
      newRequestSchema.parse({ tag: newTag(label), amount, description: `Invoice ${label}`, idempotencyKey: newKey(label) }),
      operator,
    );
    if (outcome.kind !== "created" || !outcome.request.requestId || !outcome.request.reference) throw new Error(`create failed: ${outcome.kind}`);
    await control.resetStats();
    return { requestId: outcome.request.requestId, reference: outcome.request.reference, tag: outcome.request.tag };
  }

  async function rowCount(): Promise<number> {
    const [row] = await database.db.select({ n: count() }).from(fundRequests);
    return row?.n ?? 0;
  }

  /** Collects this request's `request.updated` events while `run` runs. */
  async function eventsDuring(requestId: string, run: () => Promise<unknown>): Promise<LiveEvent[]> {
    // What the set-up committed (the send's own change) is heard first, so a late delivery of it is not counted here.
    await settleLive(database.db);
    const events: LiveEvent[] = [];
    const unsubscribe = subscribe((e) => {
      if (e.type === "request.updated" && e.requestId === requestId) events.push(e);
    });
    try {
      await run();
      await settleLive(database.db);
    } finally {
      unsubscribe();
    }
    return events;
  }

  describe("getRequestDetail", () => {
    it("refreshes our pending request from the service: accepted after the user accepts", async () => {
      const { requestId, reference, tag } = await sendPending("detail.accept");
      await control.accept(requestId);

      const events = await eventsDuring(requestId, async () => {
        const outcome = await getRequestDetail(deps, requestId);
        expect(outcome.kind).toBe("found");
        if (outcome.kind !== "found") return;
        expect(outcome.stale).toBeNull();
        expect(outcome.request).toMatchObject({ requestId, reference, status: "accepted", local: true, amount: "250.00", tag });
        expect(outcome.request.requestedSentTo?.tag).toBe(tag);
        expect(outcome.request.requestedBy?.tag).toBe("adaeze.foods");
        expect(outcome.request.decidedAt).not.toBeNull();
      });
      expect(events.map((e) => (e.type === "request.updated" ? e.status : ""))).toEqual(["accepted"]);
      expect((await findRequestByServiceId(database.db, requestId))?.status).toBe("accepted");
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("finds our request by its fb_ reference too", async () => {
      const { requestId, reference } = await sendPending("detail.ref");
      await control.decline(requestId);
      const outcome = await getRequestDetail(deps, reference);
      expect(outcome).toMatchObject({ kind: "found", stale: null, request: { requestId, reference, status: "declined", local: true } });
    });

    it("shows a request the dashboard did not send from the service's record, storing nothing", async () => {
      const tag = newTag("direct");
      const requestId = await control.createDirect({ amount: 1234.5, tag, description: "Sent by hand", meta: { transactionReference: "ext-77" } });
      const before = await rowCount();
      await control.resetStats();

      const outcome = await getRequestDetail(deps, requestId);
      expect(outcome.kind).toBe("found");
      if (outcome.kind !== "found") return;
      expect(outcome.stale).toBeNull();
      expect(outcome.request).toMatchObject({
        requestId,
        reference: "ext-77",
        tag,
        amount: "1234.50",
        description: "Sent by hand",
        status: "pending",
        local: false,
        createdBy: null,
        decidedAt: null,
      });
      expect(await rowCount()).toBe(before);
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("answers not_found for an id the service does not know", async () => {
      const outcome = await getRequestDetail(deps, "987654321");
      expect(outcome).toEqual({ kind: "not_found" });
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("answers not_found for a malformed id without calling the service", async () => {
      for (const id of ["../balance", "a b", "x".repeat(65)]) {
        expect(await getRequestDetail(deps, id)).toEqual({ kind: "not_found" });
      }
      expect(await control.calls()).toEqual({});
    });

    it("serves the local pending record marked stale when the service fails", async () => {
      const { requestId, reference } = await sendPending("detail.stale");
      // Every attempt fails, retries included.
      await control.fault(FETCH_PATH, "500");
      const outcome = await getRequestDetail(deps, requestId);
      expect(outcome.kind).toBe("found");
      if (outcome.kind !== "found") return;
      expect(outcome.request).toMatchObject({ requestId, reference, status: "pending", local: true });
      expect(outcome.stale).toMatch(/internal error, so we could not read the fund request/);
      // GETs are retried (1 + 3 attempts) and nothing is written.
      expect(await control.count(FETCH_CALL)).toBe(4);
      expect((await findRequestByServiceId(database.db, requestId))?.status).toBe("pending");
    });

    it("serves the local record marked stale when the service rejects the key", async () => {
      const { requestId } = await sendPending("detail.key");
      const wrongKey = requestDeps(database.db, sb, { service: { apiKey: "wrong-key" } });
      const outcome = await getRequestDetail(wrongKey, requestId);
      expect(outcome).toMatchObject({ kind: "found", request: { requestId, status: "pending" } });
      if (outcome.kind !== "found") return;
      expect(outcome.stale).toMatch(/API key/);
    });

    it("serves final and failed local records without calling the service", async () => {
      const accepted = await sendPending("final.accept");
      await control.accept(accepted.requestId);
      expect(await getRequestDetail(deps, accepted.requestId)).toMatchObject({ kind: "found", request: { status: "accepted" } });
      const declined = await sendPending("final.decline");
      await control.decline(declined.requestId);
      expect(await getRequestDetail(deps, declined.requestId)).toMatchObject({ kind: "found", request: { status: "declined" } });
      const failed = await createFundRequest(
        deps,
        newRequestSchema.parse({ tag: "missing.final", amount: "5", description: "x", idempotencyKey: newKey("final.failed") }),
        operator,
      );
      expect(failed.kind).toBe("service_failed");
      await control.resetStats();

      // Even with the service failing, final rows are served, and served fresh-looking (no stale note).
      await control.fault(FETCH_PATH, "500");
      expect(await getRequestDetail(deps, accepted.requestId)).toMatchObject({ kind: "found", stale: null, request: { status: "accepted" } });
      expect(await getRequestDetail(deps, accepted.reference)).toMatchObject({ kind: "found", stale: null, request: { status: "accepted" } });
      expect(await getRequestDetail(deps, declined.requestId)).toMatchObject({ kind: "found", stale: null, request: { status: "declined" } });
      expect(await getRequestDetail(deps, failed.request.reference ?? "")).toMatchObject({
        kind: "found",
        stale: null,
        request: { status: "failed", requestId: null, error: failed.request.error },
      });
      expect(await control.calls()).toEqual({});
    });
  });

  describe("getRequestDetail with the on-demand gate (viewers share the service's rate limit)", () => {
    it("fifty viewers of one outside request cause one service call, and a re-read within the fresh window none", async () => {
      const gated = { ...deps, fetchGate: createFetchGate() };
      const requestId = await control.createDirect({ amount: 10, tag: newTag("gate.many"), description: "Viewed by many" });
      await control.resetStats();
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => getRequestDetail(gated, requestId)));
      for (const o of outcomes) expect(o).toMatchObject({ kind: "found", request: { requestId, status: "pending", local: false } });
      expect(await control.count(FETCH_CALL)).toBe(1);
      await getRequestDetail(gated, requestId);
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("re-reads of our request within the fresh window come from the database; the first stored the news", async () => {
      const gated = { ...deps, fetchGate: createFetchGate() };
      const { requestId } = await sendPending("gate.fresh");
      await control.accept(requestId);
      expect(await getRequestDetail(gated, requestId)).toMatchObject({ kind: "found", stale: null, request: { status: "accepted" } });
      // Other viewers, even on another instance (no shared in-process gate), read the row the first one stored.
      const elsewhere = { ...deps, fetchGate: createFetchGate() };
      const readers = await Promise.all(Array.from({ length: 5 }, () => getRequestDetail(elsewhere, requestId)));
      for (const r of readers) expect(r).toMatchObject({ kind: "found", stale: null, request: { status: "accepted" } });
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("a pending request checked within STATUS_FRESH_MS is not asked again, on any instance; an older check is", async () => {
      const { requestId } = await sendPending("gate.claim");
      await control.resetStats();
      const instances = Array.from({ length: 3 }, () => ({ ...deps, fetchGate: createFetchGate() }));
      const outcomes = await Promise.all(instances.flatMap((d) => [getRequestDetail(d, requestId), getRequestDetail(d, requestId)]));
      for (const o of outcomes) expect(o).toMatchObject({ kind: "found", request: { status: "pending" } });
      expect(await control.count(FETCH_CALL)).toBe(1);
      // The last check now lies beyond the window: the next reader (on a fourth instance) asks the service again.
      await database.db
        .update(fundRequests)
        .set({ lastCheckedAt: new Date(Date.now() - STATUS_FRESH_MS - 1_000) })
        .where(eq(fundRequests.requestId, requestId));
      await getRequestDetail({ ...deps, fetchGate: createFetchGate() }, requestId);
      expect(await control.count(FETCH_CALL)).toBe(2);
    });

    it("the cross-instance claim lasts 20 s: a check 19 s ago holds, one 21 s ago does not", async () => {
      const { requestId } = await sendPending("gate.claim20");
      const checkedAgo = (ms: number) =>
        database.db
          .update(fundRequests)
          .set({ lastCheckedAt: new Date(Date.now() - ms) })
          .where(eq(fundRequests.requestId, requestId));
      // A fresh gate for each read: only the claim in the database can hold a read back.
      const read = () => getRequestDetail({ ...deps, fetchGate: createFetchGate() }, requestId);
      await control.resetStats();
      await checkedAgo(19_000);
      await read();
      expect(await control.count(FETCH_CALL)).toBe(0);
      await checkedAgo(21_000);
      await read();
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("a cached copy whose first reader has not stored it yet still moves our record on", async () => {
      const gated = { ...deps, fetchGate: createFetchGate() };
      const { requestId } = await sendPending("gate.uncommitted");
      await control.accept(requestId);
      // Another viewer's fetch, cached by the gate, whose write to the database has not landed.
      await gated.fetchGate.fetch(requestId, () => deps.service.getFundRequest(requestId));
      const [before] = await database.db.select({ status: fundRequests.status }).from(fundRequests).where(eq(fundRequests.requestId, requestId));
      expect(before?.status).toBe("pending");

      expect(await getRequestDetail(gated, requestId)).toMatchObject({ kind: "found", stale: null, request: { status: "accepted" } });
      const [after] = await database.db.select({ status: fundRequests.status }).from(fundRequests).where(eq(fundRequests.requestId, requestId));
      expect(after?.status).toBe("accepted");
      expect(await control.count(FETCH_CALL)).toBe(1);
    });

    it("with the shared budget spent, serves our record as stored and tells outsiders to wait, calling nothing", async () => {
      const first = await sendPending("gate.spent.a");
      const second = await sendPending("gate.spent.b");
      const outside = await control.createDirect({ amount: 10, tag: newTag("gate.outside"), description: "Outside" });
      await database.db.execute(sql`delete from service_calls`);
      // The real shared budget at a limit of 6: one read fits beside the send reserve of 5.
      const gated = {
        ...requestDeps(database.db, sb, {
          service: {
            beforeApiCall: budgetGate(
              async () => database.db,
              () => "read",
              6,
            ),
          },
        }),
        fetchGate: createFetchGate(),
      };
      await control.resetStats();

      expect(await getRequestDetail(gated, first.requestId)).toMatchObject({ kind: "found", request: { requestId: first.requestId } });
      expect(await control.count(FETCH_CALL)).toBe(1);
      await control.accept(second.requestId);
      const served = await getRequestDetail(gated, second.requestId);
      // The stored (pending) record, not an error: the reconciler or the webhook moves it on.
      expect(served).toMatchObject({ kind: "found", stale: null, request: { requestId: second.requestId, status: "pending" } });
      const refused = await getRequestDetail(gated, outside).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ServiceError);
      if (refused instanceof ServiceError) {
        expect(refused.budgetRefused).toBe(true);
        expect(refused.userMessage).toMatch(/Fundboard is keeping under the service's limit of 6 calls a minute; try again in \d+ s/);
      }
      expect(await control.count(FETCH_CALL)).toBe(1);
    });
  });

  describe("forward-only status", () => {
    it("keeps accepted when an older pending snapshot and a contradictory declined one arrive later", async () => {
      const { requestId } = await sendPending("fwd.accept");
      const pendingSnapshot = await deps.service.getFundRequest(requestId);
      expect(pendingSnapshot.request_status).toBe("pending");
      await control.accept(requestId);
      const acceptedSnapshot = await deps.service.getFundRequest(requestId);
      expect(acceptedSnapshot.request_status).toBe("accepted");
      const declinedSnapshot: FundRequest = { ...acceptedSnapshot, request_status: "declined" };

      const events = await eventsDuring(requestId, async () => {
        expect((await applyFetched(deps, acceptedSnapshot))?.status).toBe("accepted");
        expect((await applyFetched(deps, pendingSnapshot))?.status).toBe("accepted");
        expect((await applyFetched(deps, declinedSnapshot))?.status).toBe("accepted");
        expect((await applyFetched(deps, acceptedSnapshot))?.status).toBe("accepted");
      });
      expect(events).toHaveLength(1);
      const row = await findRequestByServiceId(database.db, requestId);
      expect(row?.status).toBe("accepted");
      expect(row?.serviceUpdatedAt?.toISOString()).toBe(acceptedSnapshot.updated_at);
    });

    it("reports changed only for the first move out of pending", async () => {
      const { requestId } = await sendPending("fwd.state");
      const state = (status: "pending" | "accepted" | "declined") => ({
        status,
        requestedBy: { name: "Adaeze Foods Ltd", tag: "adaeze.foods" },
        requestedSentTo: { name: "Someone", tag: "someone" },
        serviceCreatedAt: new Date("2026-01-01T00:00:00.000Z"),
        serviceUpdatedAt: new Date("2026-01-01T00:01:00.000Z"),
      });
      const results = [];
      for (const status of ["pending", "declined", "pending", "accepted", "declined"] as const) {
        const { row, changed } = await applyServiceState(database.db, requestId, state(status));
        results.push({ changed, status: row?.status });
      }
      expect(results).toEqual([
        { changed: false, status: "pending" },
        { changed: true, status: "declined" },
        { changed: false, status: "declined" },
        { changed: false, status: "declined" },
        { changed: false, status: "declined" },
      ]);
    });

    it("never touches a failed request, and knows nothing of an id it did not record", async () => {
      const failed = await createFundRequest(
        deps,
        newRequestSchema.parse({ tag: "missing.fwd", amount: "5", description: "x", idempotencyKey: newKey("fwd.failed") }),
        operator,
      );
      expect(failed.request.status).toBe("failed");
      const tag = newTag("fwd.stranger");
      const strangerId = await control.createDirect({ amount: 10, tag, description: "not ours" });
      await control.accept(strangerId);
      const snapshot = await deps.service.getFundRequest(strangerId);
      expect(await applyFetched(deps, snapshot)).toBeNull();
      expect(await findRequestByServiceId(database.db, strangerId)).toBeNull();
      const [row] = await database.db
        .select()
        .from(fundRequests)
        .where(eq(fundRequests.reference, failed.request.reference ?? ""));
      expect(row?.status).toBe("failed");
    });

    it("publishes one change when two refreshes of the same acceptance race", async () => {
      const { requestId } = await sendPending("fwd.race");
      await control.accept(requestId);
      const snapshot = await deps.service.getFundRequest(requestId);

      const events = await eventsDuring(requestId, async () => {
        const views = await Promise.all([applyFetched(deps, snapshot), applyFetched(deps, snapshot), getRequestDetail(deps, requestId)]);
        expect(views[0]?.status).toBe("accepted");
        expect(views[1]?.status).toBe("accepted");
      });
      expect(events).toEqual([{ type: "request.updated", requestId, campaignId: null, status: "accepted" }]);
    });

    it("publishes one change when many concurrent applies of accepted and declined race, and the first wins", async () => {
      const { requestId } = await sendPending("fwd.many");
      await control.accept(requestId);
      const accepted = await deps.service.getFundRequest(requestId);
      const declined: FundRequest = { ...accepted, request_status: "declined" };
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          applyServiceState(database.db, requestId, {
            status: i % 2 === 0 ? "accepted" : "declined",
            requestedBy: (i % 2 === 0 ? accepted : declined).requested_by,
            requestedSentTo: accepted.requested_sent_to,
            serviceCreatedAt: null,
            serviceUpdatedAt: null,
          }),
        ),
      );
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      const final = (await findRequestByServiceId(database.db, requestId))?.status;
      const winner = results.findIndex((r) => r.changed);
      expect(final).toBe(winner % 2 === 0 ? "accepted" : "declined");
      // Every later answer reports the winner, never a move back.
      for (const r of results) expect(r.row?.status).toBe(final);
    });
  });
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { fundRequests } from "@/lib/db/schema";
import { subscribe, type LiveEvent } from "@/lib/live/bus";
import type { ServiceErrorKind } from "@/lib/service/errors";
import type { Sandbox } from "@/sandbox/server";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";
import { insertStaff, newKey, newTag, requestDeps } from "@/tests/support/request-deps";
import { startTestSandbox } from "@/tests/support/sandbox";
import { CREATE_CALL, CREATE_PATH, sandboxControl, type FaultMode, type SandboxControl } from "@/tests/support/sandbox-control";

import { createFundRequest, type CreateOutcome } from "./create";
import type { RequestDeps } from "./deps";
import { clientKey } from "./keys";
import { newRequestSchema, type NewRequest } from "@/lib/client/requests/schemas";
import { settleLive } from "@/tests/support/live";

// createFundRequest against the sandbox over HTTP and a real database: what is recorded, what the
// service receives, how often it is called, and what each fault of the create path leaves behind.

let sb: Sandbox;
let control: SandboxControl;

beforeAll(async () => {
  // "slow" answers after 200 ms, inside the client's 500 ms timeout: a send that is merely in flight.
  sb = await startTestSandbox({ slowDelayMs: 200 });
  control = sandboxControl(sb);
});
afterAll(async () => sb.close());

function input(over: Partial<{ tag: string; amount: string | number; description: string; idempotencyKey: string }> = {}): NewRequest {
  return newRequestSchema.parse({
    tag: over.tag ?? newTag("ada"),
    amount: over.amount ?? "1500.50",
    description: over.description ?? "Invoice 42",
    idempotencyKey: over.idempotencyKey ?? newKey("create"),
  });
}

describe.each(dbTargets())("createFundRequest on $name", (target) => {
  const database = useTestDatabase(target, { live: true });
  let deps: RequestDeps;
  let operator: { id: string; name: string };

  beforeAll(async () => {
    deps = requestDeps(database.db, sb);
    operator = await insertStaff(database.db, "Ola Operator");
  });
  beforeEach(async () => control.reset());

  // A client's key is stored in the client namespace (lib/requests/keys.ts).
  const rowsForKey = (key: string) =>
    database.db
      .select()
      .from(fundRequests)
      .where(eq(fundRequests.idempotencyKey, clientKey(key)));
  const rowsForTag = (tag: string) => database.db.select().from(fundRequests).where(eq(fundRequests.tag, tag));

  it("records a pending request with the service's id, sends the amount in naira and our reference in meta", async () => {
    const events: LiveEvent[] = [];
    const req = input({ amount: "1500.50" });
    const unsubscribe = subscribe((e) => events.push(e));
    let outcome: CreateOutcome;
    try {
      outcome = await createFundRequest(deps, req, operator);
      // Heard at each commit: on Postgres through the LISTEN connection, a moment after.
      await settleLive(database.db);
    } finally {
      unsubscribe();
    }

    expect(outcome.kind).toBe("created");
    const view = outcome.request;
    expect(view.status).toBe("pending");
    expect(view.requestId).toMatch(/^\d+$/);
    expect(typeof view.requestId).toBe("string");
    expect(view.amount).toBe("1500.50");
    expect(view.tag).toBe(req.tag);
    expect(view.reference).toMatch(/^fb_[A-Za-z0-9_-]+$/);
    expect(view.createdBy).toEqual({ id: operator.id, name: "Ola Operator" });
    expect(view.error).toBeNull();
    expect(view.local).toBe(true);

    const rows = await rowsForKey(req.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "pending", requestId: view.requestId, amount: "1500.50", reference: view.reference, error: null });

    const sent = await control.request(view.requestId ?? "");
    expect(sent).toBeDefined();
    expect(sent?.amount).toBe(1500.5);
    expect(sent?.description).toBe("Invoice 42");
    expect(sent?.requested_sent_to.tag).toBe(req.tag);
    expect(sent?.meta).toEqual({ notificationUrl: deps.webhookUrl, transactionReference: view.reference });
    expect(await control.count(CREATE_CALL)).toBe(1);

    // The browsers hear "sending" (no service id yet) and then "pending" for this request, which is no campaign's.
    const mine = events.filter((e) => e.type === "request.updated");
    expect(mine).toEqual([
      { type: "request.updated", requestId: null, campaignId: null, status: "sending" },
      { type: "request.updated", requestId: view.requestId, campaignId: null, status: "pending" },
    ]);
  });

  it("sends kobo when the amount unit is minor, still storing naira", async () => {
    // The sandbox stores the number it was sent; one sandbox per file keeps its request ids unique in this database.
    const minorDeps = requestDeps(database.db, sb, { amountUnit: "minor" });
    const outcome = await createFundRequest(minorDeps, input({ amount: 1500.5 }), operator);
    expect(outcome.kind).toBe("created");
    expect(outcome.request.amount).toBe("1500.50");
    const sent = await control.request(outcome.request.requestId ?? "");
    expect(sent?.amount).toBe(150050);
  });

  it("replays the same idempotency key: same record, the service called once", async () => {
    const req = input();
    const first = await createFundRequest(deps, req, operator);
    const second = await createFundRequest(deps, req, operator);

    expect(first.kind).toBe("created");
    expect(second.kind).toBe("replayed");
    expect(second.request).toEqual(first.request);
    expect(await rowsForKey(req.idempotencyKey)).toHaveLength(1);
    expect(await control.count(CREATE_CALL)).toBe(1);
  });

  it("makes one request when ten calls race with one key", async () => {
    const req = input();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => createFundRequest(deps, req, operator)));

    const kinds = outcomes.map((o) => o.kind).sort();
    expect(kinds).toEqual(["created", ...Array.from({ length: 9 }, () => "replayed")]);
    const rows = await rowsForKey(req.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("pending");
    expect(new Set(outcomes.map((o) => o.request.reference))).toEqual(new Set([rows[0]?.reference]));
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect((await control.requests()).filter((r) => r.requested_sent_to.tag === req.tag)).toHaveLength(1);
  });

  it("a repeat that arrives while the first is at the service waits and answers the same final record", async () => {
    const req = input();
    await control.fault(CREATE_PATH, "slow", 1);
    const outcomes = await Promise.all([
      createFundRequest(deps, req, operator),
      createFundRequest(deps, req, operator),
      createFundRequest(deps, req, operator),
    ]);
    const [row] = await rowsForKey(req.idempotencyKey);
    expect(row?.error ?? null).toBeNull();
    expect(row?.status).toBe("pending");
    for (const o of outcomes) {
      expect(o.request.status).toBe("pending");
      expect(o.request.requestId).toBe(row?.requestId);
    }
    expect(outcomes.map((o) => o.kind).sort()).toEqual(["created", "replayed", "replayed"]);
    expect(await control.count(CREATE_CALL)).toBe(1);
  });

  it("a repeat that cannot wait long enough is told the request is still being sent, never shown it as done", async () => {
    const req = input();
    await control.fault(CREATE_PATH, "slow", 1);
    const first = createFundRequest(deps, req, operator);
    // The second starts once the first's row exists, and gives up after 20 ms of the sandbox's 200 ms delay.
    await expect.poll(async () => (await rowsForKey(req.idempotencyKey)).length).toBe(1);
    const second = await createFundRequest(deps, req, operator, 20);
    expect(second.kind).toBe("in_flight");
    expect(second.request.status).toBe("sending");
    expect((await first).kind).toBe("created");
  });

  it("refuses the same key with a different amount or description, without calling the service again", async () => {
    const req = input({ amount: "100.00" });
    const first = await createFundRequest(deps, req, operator);
    const otherAmount = await createFundRequest(deps, { ...req, amount: "100.01" }, operator);
    const otherText = await createFundRequest(deps, { ...req, description: "Something else" }, operator);

    expect(first.kind).toBe("created");
    expect(otherAmount.kind).toBe("key_reused");
    expect(otherText.kind).toBe("key_reused");
    // The answer is the original record, not the new input.
    expect(otherAmount.request.amount).toBe("100.00");
    expect(otherAmount.request.reference).toBe(first.request.reference);
    const rows = await rowsForKey(req.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.amount).toBe("100.00");
    expect(await control.count(CREATE_CALL)).toBe(1);
  });

  /** One failed row for this key, no service id, and the error the user sees stored with it. */
  async function expectRecordedFailure(outcome: CreateOutcome, key: string, tag: string) {
    expect(outcome.kind).toBe("service_failed");
    if (outcome.kind !== "service_failed") throw new Error("unreachable");
    expect(outcome.request.status).toBe("failed");
    expect(outcome.request.requestId).toBeNull();
    expect(outcome.request.error).toBe(outcome.error.userMessage);
    const rows = await rowsForKey(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "failed", requestId: null, error: outcome.error.userMessage });
    const byTag = await rowsForTag(tag);
    expect(byTag.filter((r) => r.status === "pending" || r.status === "sending")).toEqual([]);
    expect(await control.count(CREATE_CALL)).toBe(1);
    return outcome.error;
  }

  it("records an unknown user as failed with the service's own message", async () => {
    const req = input({ tag: "missing.x" });
    const outcome = await createFundRequest(deps, req, operator);
    // missing.x is shared across targets and runs; look only at this key.
    const rows = await rowsForKey(req.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(outcome.kind).toBe("service_failed");
    if (outcome.kind !== "service_failed") throw new Error("unreachable");
    expect(["not_found", "rejected"]).toContain(outcome.error.kind);
    expect(outcome.error.outcomeUnknown).toBe(false);
    expect(outcome.error.serviceMessage).toContain("missing.x");
    expect(outcome.request.error).toContain("No user found with tag missing.x");
    expect(rows[0]).toMatchObject({ status: "failed", requestId: null, error: outcome.request.error });
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect((await control.requests()).filter((r) => r.requested_sent_to.tag === "missing.x")).toEqual([]);
  });

  const faults: { mode: FaultMode; kind: ServiceErrorKind; outcomeUnknown: boolean; message: RegExp }[] = [
    { mode: "500", kind: "server_error", outcomeUnknown: true, message: /internal error.*may still have reached the service: check its status/ },
    { mode: "429", kind: "rate_limited", outcomeUnknown: false, message: /rate-limiting us; try again in 1 second/ },
    { mode: "timeout", kind: "timeout", outcomeUnknown: true, message: /did not answer in time.*may still have reached the service/ },
    { mode: "malformed", kind: "bad_response", outcomeUnknown: true, message: /could not read.*may still have reached the service/ },
  ];

  it.each(faults)("records a $mode answer to the create as failed ($kind), and never retries the POST", async ({ mode, kind, outcomeUnknown, message }) => {
    await control.fault(CREATE_PATH, mode, 1);
    const req = input();
    const outcome = await createFundRequest(deps, req, operator);
    const error = await expectRecordedFailure(outcome, req.idempotencyKey, req.tag);
    expect(error.kind).toBe(kind);
    expect(error.outcomeUnknown).toBe(outcomeUnknown);
    expect(error.userMessage).toMatch(message);
    // The fault was spent on the one POST: nothing reached the sandbox's store.
    expect((await control.requests()).filter((r) => r.requested_sent_to.tag === req.tag)).toEqual([]);
  });

  it("records a rejected API key as failed, unauthorized, naming the key", async () => {
    const wrongKey = requestDeps(database.db, sb, { service: { apiKey: "not-the-sandbox-key" } });
    const req = input();
    const outcome = await createFundRequest(wrongKey, req, operator);
    const error = await expectRecordedFailure(outcome, req.idempotencyKey, req.tag);
    expect(error.kind).toBe("unauthorized");
    expect(error.userMessage).toMatch(/API key/);
    expect(error.userMessage).toContain("SERVICE_API_KEY");
    expect(error.userMessage).not.toContain("not-the-sandbox-key");
  });

  it("replays a failed request as failed without calling the service again", async () => {
    await control.fault(CREATE_PATH, "500", 1);
    const req = input();
    const first = await createFundRequest(deps, req, operator);
    expect(first.kind).toBe("service_failed");
    const again = await createFundRequest(deps, req, operator);
    expect(again.kind).toBe("replayed");
    expect(again.request.status).toBe("failed");
    expect(again.request.reference).toBe(first.request.reference);
    expect(await control.count(CREATE_CALL)).toBe(1);
    expect(await rowsForKey(req.idempotencyKey)).toHaveLength(1);
  });
});

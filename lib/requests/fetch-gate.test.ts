import { describe, expect, it } from "vitest";

import type { FundRequest } from "@/lib/service/schemas";

import { createFetchGate, isPacedError } from "./fetch-gate";

// The gate's arithmetic on a clock the test moves; the sandbox-backed behaviour is in refresh.test.ts.

function record(id: string): FundRequest {
  return { request_id: id } as FundRequest;
}

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function outcome(promise: Promise<{ record: FundRequest; reused: boolean }>): Promise<string> {
  return promise.then(
    (r) => `${r.reused ? "cached" : "ok"} ${r.record.request_id}`,
    (e: unknown) => (isPacedError(e) ? `paced ${e.retryAfterMs}` : `error ${String(e)}`),
  );
}

describe("fetch gate", () => {
  it("spends a burst, then paces with the wait until the next token, then allows again", async () => {
    const t = clock();
    const gate = createFetchGate({ burst: 2, budgetPerMinute: 60, freshMs: 5_000, now: t.now });
    let calls = 0;
    const call = (id: string) => () => {
      calls += 1;
      return Promise.resolve(record(id));
    };
    expect(await outcome(gate.fetch("1", call("1")))).toBe("ok 1");
    expect(await outcome(gate.fetch("2", call("2")))).toBe("ok 2");
    expect(await outcome(gate.fetch("3", call("3")))).toBe("paced 1000");
    t.advance(500);
    expect(await outcome(gate.fetch("3", call("3")))).toBe("paced 500");
    t.advance(500);
    expect(await outcome(gate.fetch("3", call("3")))).toBe("ok 3");
    expect(calls).toBe(3);
    expect(gate.stats).toEqual({ calls: 3, served: 0, paced: 2 });
  });

  it("serves a fetched record until it is older than the fresh window, even with no budget left", async () => {
    const t = clock();
    const gate = createFetchGate({ burst: 1, budgetPerMinute: 1, freshMs: 5_000, now: t.now });
    let calls = 0;
    const call = () => {
      calls += 1;
      return Promise.resolve(record("7"));
    };
    expect(await outcome(gate.fetch("7", call))).toBe("ok 7");
    t.advance(4_999);
    expect(await outcome(gate.fetch("7", call))).toBe("cached 7");
    t.advance(1);
    expect(await outcome(gate.fetch("7", call))).toMatch(/^paced \d+$/);
    expect(calls).toBe(1);
  });

  it("shares a call in flight and does not keep a failure", async () => {
    const t = clock();
    const gate = createFetchGate({ burst: 5, budgetPerMinute: 60, now: t.now });
    let release: (r: FundRequest) => void = () => {};
    let calls = 0;
    const slow = () => {
      calls += 1;
      return new Promise<FundRequest>((resolve) => (release = resolve));
    };
    const both = Promise.all([outcome(gate.fetch("9", slow)), outcome(gate.fetch("9", slow))]);
    release(record("9"));
    expect(await both).toEqual(["ok 9", "ok 9"]);
    expect(calls).toBe(1);

    const failing = () => {
      calls += 1;
      return Promise.reject(new Error("boom"));
    };
    expect(await outcome(gate.fetch("10", failing))).toBe("error Error: boom");
    expect(await outcome(gate.fetch("10", failing))).toBe("error Error: boom");
    expect(calls).toBe(3);
  });
});

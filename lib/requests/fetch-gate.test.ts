import { describe, expect, it } from "vitest";

import type { FundRequest } from "@/lib/service/schemas";

import { createFetchGate } from "./fetch-gate";

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
    (e: unknown) => `error ${String(e)}`,
  );
}

describe("fetch gate", () => {
  it("asks the service once per id per fresh window, serving the copy in between", async () => {
    const t = clock();
    const gate = createFetchGate({ freshMs: 5_000, now: t.now });
    let calls = 0;
    const call = (id: string) => () => {
      calls += 1;
      return Promise.resolve(record(id));
    };
    expect(await outcome(gate.fetch("7", call("7")))).toBe("ok 7");
    expect(await outcome(gate.fetch("8", call("8")))).toBe("ok 8");
    t.advance(4_999);
    expect(await outcome(gate.fetch("7", call("7")))).toBe("cached 7");
    t.advance(1);
    expect(await outcome(gate.fetch("7", call("7")))).toBe("ok 7");
    expect(calls).toBe(3);
    expect(gate.stats).toEqual({ calls: 3, served: 1 });
  });

  it("shares a call in flight and does not keep a failure", async () => {
    const t = clock();
    const gate = createFetchGate({ now: t.now });
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

  it("by default keeps a copy for 5 s (FETCH_FRESH_MS)", async () => {
    const t = clock();
    const gate = createFetchGate({ now: t.now });
    const call = () => Promise.resolve(record("11"));
    expect(await outcome(gate.fetch("11", call))).toBe("ok 11");
    t.advance(4_999);
    expect(await outcome(gate.fetch("11", call))).toBe("cached 11");
    t.advance(1);
    expect(await outcome(gate.fetch("11", call))).toBe("ok 11");
  });
});

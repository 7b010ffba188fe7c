import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { apiKeys } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { rateLimitHeaders, spendKeyCall } from "./rate-limit";

// Per-key limits held in the database (docs/architecture.md "The API"): two instances (two connections) counting the
// same key's calls together never let more than the limit through in a minute.

describe.each(dbTargets())("per-key rate limits on $name", (target) => {
  const database = useTestDatabase(target);

  async function key(): Promise<string> {
    const id = randomUUID();
    await database.db.insert(apiKeys).values({
      id,
      name: "k",
      mode: "live",
      keyHash: randomUUID(),
      prefix: "fb_live_",
      last4: "abcd",
      scopes: [],
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    return id;
  }

  it("lets exactly the limit through from two instances at once, then refuses with the seconds until the window ends", async () => {
    const id = await key();
    // The embedded database opens in one process only: there the two "instances" share its connection.
    const second = target.name === "postgres" ? await database.reopen() : null;
    const other = second ?? database;
    try {
      const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => spendKeyCall((i % 2 === 0 ? database : other).db, id, "write", 25)));
      // The minute may turn during the burst: each window then admits at most the limit, and a window with more calls
      // than the limit admits exactly the limit.
      for (const window of new Set(verdicts.map((v) => v.window))) {
        const inWindow = verdicts.filter((v) => v.window === window);
        const admitted = inWindow.filter((v) => v.ok).length;
        expect(admitted).toBe(Math.min(25, inWindow.length));
        for (const v of inWindow.filter((x) => !x.ok)) expect(v.resetSeconds).toBeGreaterThanOrEqual(1);
      }
      // Reads are counted apart from writes.
      expect((await spendKeyCall(database.db, id, "read", 25)).ok).toBe(true);
    } finally {
      await second?.close();
    }
  });

  it("says the policy and what is left in the IETF RateLimit headers", async () => {
    const id = await key();
    const state = await spendKeyCall(database.db, id, "read", 600);
    expect(state.window).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(rateLimitHeaders(state)).toEqual({ "RateLimit-Policy": '"reads";q=600;w=60', RateLimit: `"reads";r=599;t=${state.resetSeconds}` });
  });
});

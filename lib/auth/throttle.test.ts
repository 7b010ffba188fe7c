import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { signInAttempts } from "@/lib/db/schema";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { beginAttempt, checkThrottle, clearFailures, MAX_ACCOUNT_FAILURES, MAX_ADDRESS_FAILURES, MAX_FAILURES, WINDOW_MS } from "./throttle";

describe.each(dbTargets())("sign-in throttle on $name", (target) => {
  const database = useTestDatabase(target);

  it("allows four failures of an account from one address, refuses the fifth onward there, with the wait in minutes; others at that address go on", async () => {
    const { db } = database;
    for (let i = 0; i < MAX_FAILURES - 1; i++) await beginAttempt(db, "a@x.test", "10.0.0.1");
    expect(await checkThrottle(db, "a@x.test", "10.0.0.1")).toEqual({ allowed: true });
    await beginAttempt(db, "a@x.test", "10.0.0.1");
    expect(await checkThrottle(db, "a@x.test", "10.0.0.1")).toEqual({ allowed: false, retryAfterMinutes: 15 });
    // The office's other people behind the same address, and this account from elsewhere, are not locked.
    expect(await checkThrottle(db, "colleague@x.test", "10.0.0.1")).toEqual({ allowed: true });
    expect(await checkThrottle(db, "a@x.test", "10.9.9.9")).toEqual({ allowed: true });
  });

  it("locks an account guessed at from many addresses at ten failures", async () => {
    const { db } = database;
    for (let i = 0; i < MAX_ACCOUNT_FAILURES - 1; i++) await beginAttempt(db, "spread@x.test", `10.1.0.${i}`);
    expect(await checkThrottle(db, "spread@x.test", "10.1.9.9")).toEqual({ allowed: true });
    await beginAttempt(db, "spread@x.test", "10.1.0.99");
    expect(await checkThrottle(db, "spread@x.test", "10.1.9.9")).toMatchObject({ allowed: false });
  });

  it("locks an address only past fifty failures over every account: one person cannot lock the office out", async () => {
    const { db } = database;
    for (let i = 0; i < MAX_ADDRESS_FAILURES - 1; i++) await beginAttempt(db, `p${i}@x.test`, "192.0.2.7");
    expect(await checkThrottle(db, "fresh@x.test", "192.0.2.7")).toEqual({ allowed: true });
    await beginAttempt(db, "p99@x.test", "192.0.2.7");
    expect(await checkThrottle(db, "fresh@x.test", "192.0.2.7")).toMatchObject({ allowed: false });
    expect(await checkThrottle(db, "fresh@x.test", "192.0.2.8")).toEqual({ allowed: true });
  });

  it("lets failures older than 15 minutes age out, and says how long is left", async () => {
    const { db } = database;
    const now = Date.now();
    for (let i = 0; i < MAX_FAILURES; i++) {
      await db.insert(signInAttempts).values({ email: "old@x.test", ip: "203.0.113.1", at: new Date(now - WINDOW_MS + 4 * 60_000 + i) });
    }
    expect(await checkThrottle(db, "old@x.test", "203.0.113.1", new Date(now))).toEqual({ allowed: false, retryAfterMinutes: 4 });
    expect(await checkThrottle(db, "old@x.test", "203.0.113.1", new Date(now + 5 * 60_000))).toEqual({ allowed: true });
  });

  it("clears the count on success", async () => {
    const { db } = database;
    for (let i = 0; i < MAX_FAILURES; i++) await beginAttempt(db, "b@x.test", "198.51.100.1");
    expect(await checkThrottle(db, "b@x.test", "198.51.100.1")).toMatchObject({ allowed: false });
    await clearFailures(db, "b@x.test");
    expect(await checkThrottle(db, "b@x.test", "198.51.100.1")).toEqual({ allowed: true });
  });

  it("does not let one account's success wipe the failures made at another from the same address", async () => {
    const { db } = database;
    const ip = "198.51.100.9";
    // Guesses at the admin interleaved with the attacker's own successful sign-ins.
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expect(await beginAttempt(db, "admin@x.test", ip)).toEqual({ allowed: true });
      await clearFailures(db, "viewer@x.test");
    }
    expect(await beginAttempt(db, "admin@x.test", ip)).toEqual({ allowed: true });
    await clearFailures(db, "viewer@x.test");
    // Five failures stand against the admin's e-mail from this address: the sixth guess is refused.
    expect(await beginAttempt(db, "admin@x.test", ip)).toMatchObject({ allowed: false });
  });

  it("lets no more than five of twenty parallel guesses through, and refused ones record nothing", async () => {
    const { db } = database;
    const claims = await Promise.all(Array.from({ length: 20 }, () => beginAttempt(db, "burst@x.test", "198.51.100.77")));
    const allowed = claims.filter((c) => c.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(1);
    expect(allowed).toBeLessThanOrEqual(MAX_FAILURES);
    // The allowed ones stand as failures until a success clears them; the refused left no row behind.
    const rows = await db.select().from(signInAttempts).where(eq(signInAttempts.email, "burst@x.test"));
    expect(rows).toHaveLength(allowed);
    expect(await beginAttempt(db, "burst@x.test", "198.51.100.77")).toMatchObject({ allowed: allowed < MAX_FAILURES });
  });
});

import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";

import { createTurns, withTurns } from "./turns";

// docs/decisions.md, "The embedded database takes turns": busy chains of statements leave the event loop its turns.

/** Runs `chains` chains of `each` statements side by side; answers how many had run when a callback queued with setImmediate (standing in for a socket's read) ran. */
async function statementsBeforeATurn(db: PGlite, chains: number, each: number): Promise<{ before: number; total: number }> {
  let done = 0;
  let before = -1;
  const turned = new Promise<void>((resolve) =>
    setImmediate(() => {
      before = done;
      resolve();
    }),
  );
  await Promise.all(
    Array.from({ length: chains }, async () => {
      for (let i = 0; i < each; i++) {
        await db.query("select $1::int as n", [i]);
        done++;
      }
    }),
  );
  await turned;
  return { before, total: done };
}

describe("the embedded database's turns", () => {
  const open: PGlite[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((db) => db.close()));
  });

  it("lets the event loop turn while chains of statements run, in and out of transactions", async () => {
    const db = withTurns(new PGlite(), createTurns(2));
    open.push(db);
    await db.waitReady;
    const { before, total } = await statementsBeforeATurn(db, 8, 200);
    expect(total).toBe(1_600);
    // Within a few slices of 2 ms, not after all 1,600 statements.
    expect(before).toBeLessThan(total / 2);

    let inside = -1;
    let ran = 0;
    await db.transaction(async (tx) => {
      setImmediate(() => (inside = ran));
      for (let i = 0; i < 400; i++) {
        await tx.query("select 1");
        ran++;
      }
    });
    expect(inside).toBeGreaterThanOrEqual(0);
    expect(inside).toBeLessThan(ran);
  });

  it("takes the turn as a statement starts, so none of many chains runs while the turn is due", async () => {
    // A turn falls due at the 50th statement; while it is due, no statement may finish (none may have been queued
    // past it); after it, all run on.
    let calls = 0;
    let due: Promise<void> | null = null;
    const turns = {
      take() {
        calls += 1;
        if (calls === 50) due = new Promise<void>((resolve) => setImmediate(() => ((due = null), resolve())));
        return due;
      },
    };
    const db = withTurns(new PGlite(), turns);
    open.push(db);
    await db.waitReady;
    let finishedWhileDue = 0;
    let finished = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = 0; i < 10; i++) {
          await db.query("select 1");
          finished += 1;
          if (due) finishedWhileDue += 1;
        }
      }),
    );
    expect(finished).toBe(160);
    expect(calls).toBeGreaterThanOrEqual(160);
    expect(finishedWhileDue).toBe(0);
  });

  it("answers at once within a slice and gives every caller past it the same turn", async () => {
    let clock = 0;
    const turns = createTurns(5, () => clock);
    expect(turns.take()).toBeNull();
    clock = 6;
    const first = turns.take();
    expect(first).not.toBeNull();
    expect(turns.take()).toBe(first);
    await first;
    // The slice starts again after the turn.
    expect(turns.take()).toBeNull();
  });
});

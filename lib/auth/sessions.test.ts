import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { settings, staff, staffSessions } from "@/lib/db/schema";
import { getSettings, saveSettings } from "@/lib/settings/repo";
import { dbTargets, useTestDatabase } from "@/tests/support/db-targets";

import { endSession, endSessions, listSessions, MAX_SESSIONS_PER_ACCOUNT, openSession, pruneSessions, SESSION_IDLE_MS, startSession } from "./sessions";

const NOT_A_SESSION = "00000000-0000-4000-8000-000000000000";

describe.each(dbTargets())("staff sessions on $name", (target) => {
  const database = useTestDatabase(target);
  let people = 0;

  async function person(): Promise<string> {
    people += 1;
    const email = `p${people}@sessions.test`;
    const [row] = await database.db.insert(staff).values({ email, name: email, role: "operator", passwordHash: "x" }).returning({ id: staff.id });
    if (!row) throw new Error("insert returned nothing");
    return row.id;
  }

  async function sessionRow(id: string) {
    const [row] = await database.db.select().from(staffSessions).where(eq(staffSessions.id, id));
    if (!row) throw new Error(`no session row ${id}`);
    return row;
  }

  /** A session and the database's own start time (its last_seen_at), the base for a fixed clock. */
  async function started(staffId: string, userAgent: string | null = "Vitest/1.0", ip = "192.0.2.10"): Promise<{ id: string; t0: number }> {
    const id = await startSession(database.db, { staffId, userAgent, ip });
    return { id, t0: (await sessionRow(id)).lastSeenAt.getTime() };
  }

  it("starts a session row that opens for its owner with the account and the team's rule", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const row = await sessionRow(id);
    expect(row).toMatchObject({ staffId: who, userAgent: "Vitest/1.0", ip: "192.0.2.10", endedAt: null, endedReason: null });
    const open = await openSession(database.db, id, who, new Date(t0 + 1_000));
    expect(open?.staff.id).toBe(who);
    expect(open?.require2fa).toBe(false);
  });

  it("keeps at most 300 characters of the user agent, and an empty one when there is none", async () => {
    const who = await person();
    const long = await started(who, "x".repeat(1_000));
    expect((await sessionRow(long.id)).userAgent).toHaveLength(300);
    const none = await started(who, null);
    expect((await sessionRow(none.id)).userAgent).toBe("");
  });

  it("answers null for an unknown id, a malformed id, or another person's account id", async () => {
    const who = await person();
    const other = await person();
    const { id, t0 } = await started(who);
    const at = new Date(t0 + 1_000);
    expect(await openSession(database.db, NOT_A_SESSION, who, at)).toBeNull();
    expect(await openSession(database.db, "not-a-uuid' or 1=1 --", who, at)).toBeNull();
    expect(await openSession(database.db, id, other, at)).toBeNull();
    expect(await openSession(database.db, id, who, at)).not.toBeNull();
  });

  it("an ended session no longer opens, and ending it again answers false", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    expect(await endSession(database.db, who, id, "signed_out")).toBe(true);
    const row = await sessionRow(id);
    expect(row.endedAt).not.toBeNull();
    expect(row.endedReason).toBe("signed_out");
    expect(await openSession(database.db, id, who, new Date(t0 + 1_000))).toBeNull();
    expect(await endSession(database.db, who, id, "ended_by_owner")).toBe(false);
    // The first reason stays.
    expect((await sessionRow(id)).endedReason).toBe("signed_out");
  });

  it("a session idle past SESSION_IDLE_MS has ended; one seen just inside it is open", async () => {
    const who = await person();
    const idle = await started(who);
    expect(await openSession(database.db, idle.id, who, new Date(idle.t0 + SESSION_IDLE_MS + 1_000))).toBeNull();
    // Refusing it did not refresh it: still ended at its idle time.
    expect((await sessionRow(idle.id)).lastSeenAt.getTime()).toBe(idle.t0);
    const fresh = await started(who);
    expect(await openSession(database.db, fresh.id, who, new Date(fresh.t0 + SESSION_IDLE_MS - 1_000))).not.toBeNull();
  });

  it("each use moves the idle deadline: a session in use is not ended by its age", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    const halfway = t0 + SESSION_IDLE_MS / 2;
    expect(await openSession(database.db, id, who, new Date(halfway))).not.toBeNull();
    // Past t0 + idle, but within idle of the last use.
    expect(await openSession(database.db, id, who, new Date(t0 + SESSION_IDLE_MS + 60_000))).not.toBeNull();
    expect(await openSession(database.db, id, who, new Date(t0 + 2 * SESSION_IDLE_MS + 120_000))).toBeNull();
  });

  it("a disabled account's sessions do not open (and do again once it is enabled)", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    await database.db.update(staff).set({ disabled: true }).where(eq(staff.id, who));
    expect(await openSession(database.db, id, who, new Date(t0 + 1_000))).toBeNull();
    await database.db.update(staff).set({ disabled: false }).where(eq(staff.id, who));
    expect(await openSession(database.db, id, who, new Date(t0 + 2_000))).not.toBeNull();
  });

  it("writes last_seen_at at most once a minute", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    const seen = async () => (await sessionRow(id)).lastSeenAt.getTime();
    expect(await openSession(database.db, id, who, new Date(t0 + 30_000))).not.toBeNull();
    expect(await seen()).toBe(t0);
    expect(await openSession(database.db, id, who, new Date(t0 + 59_000))).not.toBeNull();
    expect(await seen()).toBe(t0);
    expect(await openSession(database.db, id, who, new Date(t0 + 61_000))).not.toBeNull();
    expect(await seen()).toBe(t0 + 61_000);
    expect(await openSession(database.db, id, who, new Date(t0 + 61_000 + 45_000))).not.toBeNull();
    expect(await seen()).toBe(t0 + 61_000);
    expect(await openSession(database.db, id, who, new Date(t0 + 61_000 + 61_000))).not.toBeNull();
    expect(await seen()).toBe(t0 + 122_000);
  });

  it("reports the team's two-step rule, also when the settings row has gone missing", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    try {
      expect(await saveSettings(database.db, { require2fa: true })).toMatchObject({ require2fa: true });
      expect((await openSession(database.db, id, who, new Date(t0 + 1_000)))?.require2fa).toBe(true);
      await database.db.delete(settings);
      expect(await getSettings(database.db)).toMatchObject({ require2fa: false });
      expect((await openSession(database.db, id, who, new Date(t0 + 2_000)))?.require2fa).toBe(false);
      // The upsert puts the row back.
      expect(await saveSettings(database.db, { require2fa: true })).toMatchObject({ require2fa: true });
      expect(await database.db.select({ id: settings.id }).from(settings)).toEqual([{ id: 1 }]);
    } finally {
      await saveSettings(database.db, { require2fa: false });
    }
  });

  it("lists the person's open sessions only, most recently seen first, marking the current one", async () => {
    const who = await person();
    const other = await person();
    const a = await started(who, "Browser A", "192.0.2.1");
    const b = await started(who, "Browser B", "192.0.2.2");
    const ended = await started(who, "Browser C", "192.0.2.3");
    const theirs = await started(other, "Someone else", "192.0.2.4");
    await endSession(database.db, who, ended.id, "ended_by_owner");
    const t0 = Math.max(a.t0, b.t0);
    // A is used later than B.
    expect(await openSession(database.db, a.id, who, new Date(t0 + 120_000))).not.toBeNull();
    const listed = await listSessions(database.db, who, b.id, new Date(t0 + 121_000));
    expect(listed.map((s) => [s.userAgent, s.ip, s.current])).toEqual([
      ["Browser A", "192.0.2.1", false],
      ["Browser B", "192.0.2.2", true],
    ]);
    expect(listed[0]?.lastSeenAt).toBe(new Date(t0 + 120_000).toISOString());
    expect(new Date(listed[1]?.createdAt ?? "").getTime()).toBe(b.t0);
    expect(listed.map((s) => s.id)).not.toContain(theirs.id);
    // Just before A goes idle, B (not seen since it started) already has: only A is listed.
    const later = await listSessions(database.db, who, a.id, new Date(t0 + 120_000 + SESSION_IDLE_MS - 1_000));
    expect(later.map((s) => [s.id, s.current])).toEqual([[a.id, true]]);
  });

  it("cannot end another person's session, nor one by a malformed id", async () => {
    const who = await person();
    const attacker = await person();
    const { id, t0 } = await started(who);
    expect(await endSession(database.db, attacker, id, "ended_by_owner")).toBe(false);
    expect(await endSession(database.db, who, "../../etc", "ended_by_owner")).toBe(false);
    expect((await sessionRow(id)).endedAt).toBeNull();
    expect(await openSession(database.db, id, who, new Date(t0 + 1_000))).not.toBeNull();
    // Nor by ending "all" of the attacker's own.
    expect(await endSessions(database.db, attacker, "ended_by_owner")).toBe(0);
    expect((await sessionRow(id)).endedAt).toBeNull();
  });

  it("endSessions ends every open session of the person but the one kept, and counts only those it ended", async () => {
    const who = await person();
    const other = await person();
    const keep = await started(who);
    const s2 = await started(who);
    const s3 = await started(who);
    const already = await started(who);
    const theirs = await started(other);
    await endSession(database.db, who, already.id, "signed_out");
    expect(await endSessions(database.db, who, "password_changed", keep.id)).toBe(2);
    expect((await sessionRow(keep.id)).endedAt).toBeNull();
    for (const s of [s2, s3]) expect((await sessionRow(s.id)).endedReason).toBe("password_changed");
    expect((await sessionRow(already.id)).endedReason).toBe("signed_out");
    expect((await sessionRow(theirs.id)).endedAt).toBeNull();
    const at = new Date(keep.t0 + 1_000);
    expect(await openSession(database.db, keep.id, who, at)).not.toBeNull();
    expect(await openSession(database.db, s2.id, who, at)).toBeNull();
    // Without `keep`: all of them, the kept one too.
    expect(await endSessions(database.db, who, "role_changed")).toBe(1);
    expect((await sessionRow(keep.id)).endedReason).toBe("role_changed");
    expect(await openSession(database.db, keep.id, who, at)).toBeNull();
    expect(await openSession(database.db, theirs.id, other, new Date(theirs.t0 + 1_000))).not.toBeNull();
  });

  it("ends a session its absolute lifetime after sign-in, however recently it was used", async () => {
    const who = await person();
    const { id, t0 } = await started(who);
    const week = 7 * 24 * 60 * 60 * 1000;
    // Used every hour for a week: never idle, still ended at seven days.
    await database.db
      .update(staffSessions)
      .set({ lastSeenAt: new Date(t0 + week - 60_000) })
      .where(eq(staffSessions.id, id));
    expect(await openSession(database.db, id, who, new Date(t0 + week - 1_000), week)).not.toBeNull();
    expect(await openSession(database.db, id, who, new Date(t0 + week + 1_000), week)).toBeNull();
  });

  it("keeps at most twenty open sessions per account: the twenty-first sign-in ends the oldest", async () => {
    const who = await person();
    const other = await person();
    const otherId = (await started(other)).id;
    const ids: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_ACCOUNT + 2; i++) ids.push((await started(who)).id);
    expect(MAX_SESSIONS_PER_ACCOUNT).toBe(20);
    const open = await listSessions(database.db, who, "");
    expect(open).toHaveLength(20);
    expect(open.map((s) => s.id)).not.toContain(ids[0]);
    expect(open.map((s) => s.id)).not.toContain(ids[1]);
    expect((await sessionRow(ids[0] ?? "")).endedReason).toBe("session_limit");
    // Another account's session is not touched.
    expect((await sessionRow(otherId)).endedAt).toBeNull();
  });

  it("retention deletes ended, idle and over-age session rows and keeps open ones", async () => {
    const who = await person();
    const ended = await started(who);
    const idle = await started(who);
    const open = await started(who);
    await endSession(database.db, who, ended.id, "signed_out");
    await database.db
      .update(staffSessions)
      .set({ lastSeenAt: new Date(idle.t0 - SESSION_IDLE_MS - 1_000) })
      .where(eq(staffSessions.id, idle.id));
    const gone = await pruneSessions(database.db, new Date(open.t0 + 1_000), 7 * 24 * 60 * 60 * 1000);
    expect(gone).toBeGreaterThanOrEqual(2);
    const left = await database.db.select({ id: staffSessions.id }).from(staffSessions).where(eq(staffSessions.staffId, who));
    expect(left.map((r) => r.id)).toEqual([open.id]);
  });
});

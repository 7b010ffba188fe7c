import "server-only";

import { and, desc, eq, gt, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";

import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { isUuid } from "@/lib/http/route-params";
import { settings, staff, staffSessions, type StaffRow } from "@/lib/db/schema";

// Sessions are rows (docs/architecture.md, "Staff accounts"): the cookie's JWT names one, and every request
// checks it is still open, so ending a row ends that sign-in at its next request.

/** A session not seen for this long has ended with its cookie (the JWT's own lifetime). */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session: a page's dozen requests cost one write. */
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_MAX = 300;
/** Open sessions one account may hold; a sign-in past this ends the least recently begun (a stolen password's copies cannot pile up). */
export const MAX_SESSIONS_PER_ACCOUNT = 20;

/** SESSION_MAX_DAYS (default 7): a session ends this long after its sign-in, however active it is. */
export function sessionMaxAgeMs(): number {
  return getConfig().sessionMaxDays * 24 * 60 * 60 * 1000;
}

export type SessionEndReason =
  "signed_out" | "ended_by_owner" | "password_changed" | "disabled" | "role_changed" | "two_step_reset" | "admin_reset" | "session_limit";

export interface SessionView {
  id: string;
  userAgent: string;
  ip: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** A new session row; past MAX_SESSIONS_PER_ACCOUNT open ones, the least recently begun are ended in the same statement's wake. */
export async function startSession(db: Db, input: { staffId: string; userAgent: string | null; ip: string }, max = MAX_SESSIONS_PER_ACCOUNT): Promise<string> {
  const [row] = await db
    .insert(staffSessions)
    .values({ staffId: input.staffId, userAgent: (input.userAgent ?? "").slice(0, USER_AGENT_MAX), ip: input.ip })
    .returning({ id: staffSessions.id });
  if (!row) throw new Error("session was not recorded");
  // One statement keeps the newest `max` open rows: sign-ins racing each other each see the others' committed rows.
  await db.execute(sql`
    update staff_sessions set ended_at = now(), ended_reason = 'session_limit'
    where staff_id = ${input.staffId} and ended_at is null and id not in (
      select id from staff_sessions where staff_id = ${input.staffId} and ended_at is null
      order by created_at desc, id desc limit ${max})`);
  return row.id;
}

export interface OpenSession {
  staff: StaffRow;
  require2fa: boolean;
}

/**
 * The session's account when the session is open (not ended, seen within SESSION_IDLE_MS, begun within
 * `maxAgeMs`, account enabled), with the team's two-step rule: one query per request, plus a last-seen write at most once a minute.
 */
export async function openSession(db: Db, sessionId: string, staffId: string, now = new Date(), maxAgeMs = sessionMaxAgeMs()): Promise<OpenSession | null> {
  if (!isUuid(sessionId)) return null;
  const [row] = await db
    .select({ staff, lastSeenAt: staffSessions.lastSeenAt, require2fa: sql<boolean>`coalesce(${settings.require2fa}, false)` })
    .from(staffSessions)
    .innerJoin(staff, eq(staff.id, staffSessions.staffId))
    .leftJoin(settings, eq(settings.id, 1))
    .where(
      and(
        eq(staffSessions.id, sessionId),
        eq(staffSessions.staffId, staffId),
        isNull(staffSessions.endedAt),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        gt(staffSessions.createdAt, new Date(now.getTime() - maxAgeMs)),
      ),
    )
    .limit(1);
  if (!row || row.staff.disabled) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, sessionId));
  }
  return { staff: row.staff, require2fa: row.require2fa };
}

/** The person's open sessions, most recently seen first. */
export async function listSessions(db: Db, staffId: string, currentId: string, now = new Date()): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.staffId, staffId),
        isNull(staffSessions.endedAt),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        gt(staffSessions.createdAt, new Date(now.getTime() - sessionMaxAgeMs())),
      ),
    )
    .orderBy(desc(staffSessions.lastSeenAt))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    userAgent: r.userAgent,
    ip: r.ip,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    current: r.id === currentId,
  }));
}

/** Ends one of the person's sessions; false when it is not theirs or already ended. */
export async function endSession(db: Db, staffId: string, sessionId: string, reason: SessionEndReason): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const ended = await db
    .update(staffSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(eq(staffSessions.id, sessionId), eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)))
    .returning({ id: staffSessions.id });
  return ended.length > 0;
}

/** Ends every open session of the person, but `keep` when given; answers how many ended. */
export async function endSessions(db: Db, staffId: string, reason: SessionEndReason, keep?: string): Promise<number> {
  const ended = await db
    .update(staffSessions)
    .set({ endedAt: new Date(), endedReason: reason })
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt), keep ? ne(staffSessions.id, keep) : undefined))
    .returning({ id: staffSessions.id });
  return ended.length;
}

/**
 * Retention: rows of sessions that can never be used again (ended, idle past SESSION_IDLE_MS, or older than
 * the absolute lifetime) are deleted; the audit log keeps who signed in and out, and when.
 */
export async function pruneSessions(db: Db, now = new Date(), maxAgeMs = sessionMaxAgeMs()): Promise<number> {
  const gone = await db
    .delete(staffSessions)
    .where(
      or(
        isNotNull(staffSessions.endedAt),
        lt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        lt(staffSessions.createdAt, new Date(now.getTime() - maxAgeMs)),
      ),
    )
    .returning({ id: staffSessions.id });
  return gone.length;
}

// A plan's clock (docs/architecture.md "Plans", docs/architecture.md "Plans"): period keys, the day and instant each period is due,
// and the next run, all on the wall clock of the plan's time zone. Pure and browser-safe: the form previews with it.
import { addDays, dayOf, monthStart, wallTime } from "@/lib/client/time/zone";

export const FREQUENCIES = ["weekly", "monthly", "quarterly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface Schedule {
  frequency: Frequency;
  /** Weekly: 1–7, Monday first; monthly and quarterly: 1–28, so every month has it. */
  day: number;
  /** "HH:MM" on the plan's wall clock. */
  sendAt: string;
  /** First and last day ("YYYY-MM-DD") a period may be due on; `endsOn` null: no end. */
  startsOn: string;
  endsOn: string | null;
  timeZone: string;
}

export interface DuePeriod {
  period: string;
  dueAt: Date;
}

const PERIOD_PATTERN: Record<Frequency, RegExp> = {
  weekly: /^(\d{4})-W(\d{2})$/,
  monthly: /^(\d{4})-(\d{2})$/,
  quarterly: /^(\d{4})-Q([1-4])$/,
};

const pad = (n: number) => String(n).padStart(2, "0");

/** The Monday that starts ISO week 1 of `year` (the week holding 4 January). */
function isoWeekOne(year: number): string {
  const jan4 = `${year}-01-04`;
  const weekday = new Date(`${jan4}T00:00:00Z`).getUTCDay();
  return addDays(jan4, -((weekday + 6) % 7));
}

/** The period `day` ("YYYY-MM-DD") falls in: `2026-W48` (ISO week), `2026-11`, `2026-Q4`. */
export function periodOf(frequency: Frequency, day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  if (frequency === "monthly") return day.slice(0, 7);
  if (frequency === "quarterly") return `${year}-Q${Math.floor((month - 1) / 3) + 1}`;
  // ISO week: the year is that of the week's Thursday.
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  const thursday = addDays(day, 3 - weekday);
  const weekYear = Number(thursday.slice(0, 4));
  const week = Math.floor((Date.parse(`${thursday}T00:00:00Z`) - Date.parse(`${isoWeekOne(weekYear)}T00:00:00Z`)) / (7 * 86_400_000)) + 1;
  return `${weekYear}-W${pad(week)}`;
}

/** The first day of `period`, or null when the key is not a period of this frequency (week 53 of a 52-week year). */
export function periodStart(frequency: Frequency, period: string): string | null {
  const m = PERIOD_PATTERN[frequency].exec(period);
  if (!m) return null;
  const year = Number(m[1]);
  const n = Number(m[2]);
  if (year < 2000 || year > 2999) return null;
  if (frequency === "monthly") return n >= 1 && n <= 12 ? `${year}-${pad(n)}-01` : null;
  if (frequency === "quarterly") return `${year}-${pad((n - 1) * 3 + 1)}-01`;
  if (n < 1) return null;
  const start = addDays(isoWeekOne(year), (n - 1) * 7);
  return periodOf("weekly", start) === period ? start : null;
}

/** The period after `period`. */
export function nextPeriod(frequency: Frequency, period: string): string {
  const start = periodStart(frequency, period);
  if (!start) throw new Error(`not a ${frequency} period: ${period}`);
  const next = frequency === "weekly" ? addDays(start, 7) : monthStart(start, frequency === "monthly" ? 1 : 3);
  return periodOf(frequency, next);
}

/** The day `period` is due on: the plan's weekday of its week, or its day of the period's first month. */
export function dueDay(schedule: Pick<Schedule, "frequency" | "day">, period: string): string {
  const start = periodStart(schedule.frequency, period);
  if (!start) throw new Error(`not a ${schedule.frequency} period: ${period}`);
  return schedule.frequency === "weekly" ? addDays(start, schedule.day - 1) : `${start.slice(0, 8)}${pad(schedule.day)}`;
}

/** The instant `HH:MM` on `day` in `timeZone`. */
export function instantAt(day: string, hhmm: string, timeZone: string): Date {
  const [h, m] = hhmm.split(":").map(Number);
  return wallTime(day, (h ?? 0) * 60 + (m ?? 0), timeZone);
}

/** When `period` is due: its due day at `sendAt` in the plan's time zone. */
export function dueAt(schedule: Schedule, period: string): Date {
  return instantAt(dueDay(schedule, period), schedule.sendAt, schedule.timeZone);
}

/** True when `period` is one the plan asks for: due on or after `startsOn` and on or before `endsOn`. */
export function inPlan(schedule: Schedule, period: string): boolean {
  const day = dueDay(schedule, period);
  return day >= schedule.startsOn && (schedule.endsOn === null || day <= schedule.endsOn);
}

/** Periods looked at in one call at most: a weekly plan's ten years. */
const MAX_STEPS = 600;

/** The plan's periods due after `from` and at or before `to`, oldest first. */
export function periodsDue(schedule: Schedule, from: Date, to: Date): DuePeriod[] {
  const out: DuePeriod[] = [];
  const first = dayOf(from, schedule.timeZone) > schedule.startsOn ? dayOf(from, schedule.timeZone) : schedule.startsOn;
  // A period is due within itself, so those before the one `from` falls in were all due before it.
  let period = periodOf(schedule.frequency, first);
  for (let step = 0; step < MAX_STEPS; step++, period = nextPeriod(schedule.frequency, period)) {
    const at = dueAt(schedule, period);
    if (at > to) break;
    if (at > from && inPlan(schedule, period)) out.push({ period, dueAt: at });
  }
  return out;
}

/** The next period due after `now`, or null when the plan has none left (past `endsOn`). */
export function nextRun(schedule: Schedule, now: Date): DuePeriod | null {
  const today = dayOf(now, schedule.timeZone);
  let period = periodOf(schedule.frequency, today > schedule.startsOn ? today : schedule.startsOn);
  for (let step = 0; step < MAX_STEPS; step++, period = nextPeriod(schedule.frequency, period)) {
    if (schedule.endsOn !== null && dueDay(schedule, period) > schedule.endsOn) return null;
    const at = dueAt(schedule, period);
    if (at > now && inPlan(schedule, period)) return { period, dueAt: at };
  }
  return null;
}

/** The plan's last `count` periods due at or before `now`, oldest first (the dues board's columns). */
export function recentPeriods(schedule: Schedule, now: Date, count: number): DuePeriod[] {
  const today = dayOf(now, schedule.timeZone);
  const out: DuePeriod[] = [];
  let period = periodOf(schedule.frequency, today);
  for (let step = 0; step < MAX_STEPS && out.length < count; step++) {
    const day = dueDay(schedule, period);
    if (day < schedule.startsOn) break;
    const at = dueAt(schedule, period);
    if (at <= now && inPlan(schedule, period)) out.unshift({ period, dueAt: at });
    const start = periodStart(schedule.frequency, period);
    if (!start) break;
    period = periodOf(schedule.frequency, addDays(start, -1));
  }
  return out;
}

/** The description a member is asked with: their own, or the plan's template, with `{period}` filled in. */
export function describe(template: string, own: string, period: string): string {
  return (own.trim() || template).replaceAll("{period}", period);
}

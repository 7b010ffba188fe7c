import type { Frequency } from "@/lib/client/plans/schedule";
import type { PlanStatus } from "@/lib/client/plans/view";

// Client-safe helpers shared by the plan pages and their components.

export const FREQUENCY_WORDS: Record<Frequency, string> = { weekly: "Weekly", monthly: "Monthly", quarterly: "Quarterly" };

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** The day field's hint for a frequency: weekly days count from Monday, monthly and quarterly ones stop at 28. */
export function dayHint(frequency: Frequency): string {
  return frequency === "weekly"
    ? "1–7, Monday first (1 is Monday, 7 is Sunday)"
    : frequency === "monthly"
      ? "1–28 of each month (every month has it)"
      : "1–28 of each quarter's first month";
}

/** "Monthly on day 1 at 09:00", "Weekly on Friday at 17:30", "Quarterly on day 5 of the quarter's first month at 08:00". */
export function scheduleText(s: { frequency: Frequency; day: number; sendAt: string }): string {
  if (s.frequency === "weekly") return `Weekly on ${WEEKDAYS[s.day - 1] ?? `day ${s.day}`} at ${s.sendAt}`;
  if (s.frequency === "monthly") return `Monthly on day ${s.day} at ${s.sendAt}`;
  return `Quarterly on day ${s.day} of the quarter's first month at ${s.sendAt}`;
}

export function planHref(id: string): string {
  return `/plans/${encodeURIComponent(id)}`;
}

/** The status words a badge shows; the tone only repeats them. */
export const PLAN_STATUS_WORDS: Record<PlanStatus, string> = { active: "active", paused: "paused", ended: "ended" };

/** A share 0–1 as a whole percent ("67%"); "—" when nothing was asked. */
export function rateText(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}

import type { PlanFields } from "@/lib/client/plans/schemas";

/** A monthly plan's fields (the 1st at 09:00 from 2026-01-01, no end, no chase), with `over` on top: the suites' one fixture. */
export function planFields(over: Partial<PlanFields> = {}): PlanFields {
  return {
    name: "Estate dues",
    descriptionTemplate: "{period} estate dues",
    frequency: "monthly",
    day: 1,
    sendAt: "09:00",
    startsOn: "2026-01-01",
    endsOn: null,
    timeZone: undefined,
    chaseAfterHours: undefined,
    chaseTimes: undefined,
    chaseInclude: undefined,
    ...over,
  };
}

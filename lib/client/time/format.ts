// Times shown to people, in the business's TIMEZONE (docs/decisions.md "Days are days in `TIMEZONE`"). The zone is passed in (the server's config, handed
// to the browser by components/providers.tsx), so the server's and the browser's rendering never disagree.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  const cached = formatters.get(timeZone);
  if (cached) return cached;
  const f = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone,
  });
  // Kept under the canonical name only (lib/client/time/zone.ts says why).
  if (f.resolvedOptions().timeZone === timeZone) formatters.set(timeZone, f);
  return f;
}

/** "25 Nov 2026, 10:43:44" on the wall clock of `timeZone`; "—" for no time. */
export function formatTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "—";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : formatter(timeZone).format(new Date(t));
}

/** The zone's name as people read it beside a time ("GMT+1" for Africa/Lagos). */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

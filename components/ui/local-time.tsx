"use client";

import { createContext, useContext, type ReactNode } from "react";

import { formatTime, zoneLabel } from "@/lib/client/time/format";

// The business's TIMEZONE, given once by the dashboard layout from the server's config (docs/decisions.md "Days are days in `TIMEZONE`").
const TimeZoneContext = createContext<string>("UTC");

export function TimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <TimeZoneContext.Provider value={timeZone}>{children}</TimeZoneContext.Provider>;
}

export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}

/** A time as people in the business read it; the zone's name in the tooltip, the UTC instant in `dateTime`. */
export function LocalTime({ iso }: { iso: string | null | undefined }) {
  const timeZone = useTimeZone();
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={`${timeZone} (${zoneLabel(timeZone, new Date(iso))})`}>
      {formatTime(iso, timeZone)}
    </time>
  );
}

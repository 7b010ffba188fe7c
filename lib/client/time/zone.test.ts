import { describe, expect, it } from "vitest";

import { addDays, dayOf, endOfDay, isoInZone, isTimeZone, startOfDay } from "./zone";

describe("days in the business's time zone", () => {
  it("Lagos (UTC+1, no DST): a day runs from 23:00 UTC the evening before", () => {
    expect(startOfDay("2026-11-24", "Africa/Lagos").toISOString()).toBe("2026-11-23T23:00:00.000Z");
    expect(endOfDay("2026-11-24", "Africa/Lagos").toISOString()).toBe("2026-11-24T23:00:00.000Z");
    // 23:30 UTC is already tomorrow in Lagos; 22:59 UTC is still today.
    expect(dayOf(new Date("2026-11-24T23:30:00Z"), "Africa/Lagos")).toBe("2026-11-25");
    expect(dayOf(new Date("2026-11-24T22:59:59Z"), "Africa/Lagos")).toBe("2026-11-24");
  });

  it("takes the offset of the day itself across a change of clocks (London, spring forward and fall back)", () => {
    expect(startOfDay("2026-03-29", "Europe/London").toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(startOfDay("2026-03-30", "Europe/London").toISOString()).toBe("2026-03-29T23:00:00.000Z");
    expect(startOfDay("2026-10-26", "Europe/London").toISOString()).toBe("2026-10-26T00:00:00.000Z");
    expect(dayOf(new Date("2026-07-01T23:30:00Z"), "Europe/London")).toBe("2026-07-02");
  });

  it("UTC stays UTC; calendar arithmetic crosses months and leap days", () => {
    expect(startOfDay("2028-02-29", "UTC").toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("writes an instant with the zone's offset, for exports a person reads", () => {
    expect(isoInZone(new Date("2026-03-10T23:05:00.750Z"), "Africa/Lagos")).toBe("2026-03-11T00:05:00+01:00");
    expect(isoInZone(new Date("2026-03-10T23:05:00Z"), "UTC")).toBe("2026-03-10T23:05:00+00:00");
    expect(isoInZone(new Date("2026-01-15T12:00:00Z"), "America/St_Johns")).toBe("2026-01-15T08:30:00-03:30");
  });

  it("knows an IANA name from a mistake", () => {
    expect(isTimeZone("Africa/Lagos")).toBe(true);
    expect(isTimeZone("Lagos")).toBe(false);
    expect(isTimeZone("UTC+1")).toBe(false);
  });
});

describe("the zone formatters kept", () => {
  it("do not grow with the spellings of one zone (each a new string, as 10,000 form posts would send)", async () => {
    const { isTimeZone, keptZoneFormats } = await import("./zone");
    isTimeZone("America/Argentina/Cordoba");
    const before = keptZoneFormats();
    for (let i = 0; i < 200; i++) {
      const spelled = [..."america/argentina/comodrivadavia"].map((c, j) => ((i >> (j % 8)) & 1 ? c.toUpperCase() : c)).join("");
      expect(isTimeZone(spelled)).toBe(true);
    }
    expect(keptZoneFormats()).toBeLessThanOrEqual(before + 1);
  });
});

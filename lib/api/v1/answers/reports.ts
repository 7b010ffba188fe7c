import { z } from "zod";

import type { DayBook } from "@/lib/client/reports/daily";

import { assertSame, naira, type Same } from "../wire";

// The day book as /api/v1 answers it: the dashboard's own view (docs/architecture.md "Closing the books").

const entry = {
  requests: z.object({ sent: z.number().int(), accepted: z.number().int(), declined: z.number().int(), failed: z.number().int() }),
  asked: naira,
  acceptedAmount: naira,
  payments: z.object({ count: z.number().int(), gross: naira, fees: naira, settled: naira, verified: z.number().int() }),
  balance: z
    .object({ first: naira, last: naira, change: naira })
    .nullable()
    .meta({ description: "The main wallet's balance from that day's readings; null with no reading" }),
  unexplained: naira.nullable().meta({ description: "The balance's change less the settled amount of the payments between its readings" }),
};

export const dayBookAnswer = z
  .object({
    from: z.string().meta({ example: "2026-11-01" }),
    to: z.string().meta({ example: "2026-11-27" }),
    days: z.array(z.object({ date: z.string().meta({ example: "2026-11-27" }), ...entry, openExceptions: z.number().int() })),
    total: z.object({ date: z.literal("total"), ...entry }).meta({ description: "The sums over the days" }),
  })
  .meta({ id: "DayBook" });

assertSame<Same<z.output<typeof dayBookAnswer>, DayBook>>(true);

import { z } from "zod";

import type { Page } from "@/lib/client/http/page-param";
import { FREQUENCIES } from "@/lib/client/plans/schedule";
import { CELL_STATUSES, type BoardView, type PlanListItem } from "@/lib/client/plans/view";

import { assertSame, isoTime, naira, page, type Same } from "../wire";

// Plans and their dues board as /api/v1 answers them: the dashboard's own views (docs/architecture.md "The API").

export const planAnswer = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(["active", "paused", "ended"]),
    frequency: z.enum(FREQUENCIES),
    members: z.number().int().meta({ description: "Members who will be asked next period" }),
    nextRunAt: isoTime.nullable(),
    lastPeriod: z.string().nullable().meta({ description: "The last period asked, such as 2026-11 or 2026-W48", example: "2026-11" }),
  })
  .meta({ id: "Plan" });

export const planPageAnswer = page(planAnswer).meta({ id: "PlanPage" });

export const boardAnswer = z
  .object({
    periods: z.array(z.string()).meta({ description: "The periods shown, oldest first" }),
    members: z.array(
      z.object({
        tag: z.string(),
        name: z.string().nullable(),
        amount: naira.nullable().meta({ description: "What they are asked now; null for a removed member" }),
        owing: naira.meta({ description: "Asked in the shown periods and not paid" }),
        removed: z.boolean(),
        cells: z.array(
          z.object({
            period: z.string(),
            status: z.enum(CELL_STATUSES).meta({ description: "The best outcome over the period's rounds" }),
            amount: naira.nullable(),
            requestId: z.string().nullable(),
          }),
        ),
      }),
    ),
    totals: z.array(
      z.object({
        period: z.string(),
        asked: naira,
        collected: naira,
        rate: z.number().nullable().meta({ description: "Share of the asked amount paid, 0 to 1; null when nothing was asked" }),
      }),
    ),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int().meta({ description: "Members shown (after the owing filter), over every page" }),
  })
  .meta({ id: "DuesBoard" });

assertSame<Same<z.output<typeof planAnswer>, PlanListItem>>(true);
assertSame<Same<z.output<typeof planPageAnswer>, Page<PlanListItem>>>(true);
assertSame<Same<z.output<typeof boardAnswer>, BoardView>>(true);

import { z } from "zod";

import { strictDayParamSchema } from "@/lib/client/time/day-param";

import { dayBookAnswer } from "../answers/reports";
import { operation } from "../operation";

// The day book through the API (docs/architecture.md "Closing the books").

const day = strictDayParamSchema.meta({ description: "A day in the business's time zone (Africa/Lagos), YYYY-MM-DD", example: "2026-11-27" });

export const getDailyReport = operation({
  method: "GET",
  path: "/reports/daily",
  operationId: "getDailyReport",
  summary: "The day book: each day's requests, payments and balance",
  description:
    "Both days included, at most 366. Neither given: this month so far; only `to`: the month it is in; only `from`: up to today. A last day before the first is a 422 naming `to`.",
  tag: "Reports",
  scope: "reports:read",
  query: z.object({ from: day, to: day }),
  success: { status: 200, description: "The day book", data: dayBookAnswer },
});

import { z } from "zod";

import { boardAnswer, planPageAnswer } from "../answers/plans";
import { operation } from "../operation";
import { pagingQuery } from "../wire";

// Plans (recurring dues) and their dues board through the API (docs/architecture.md "Plans").

export const listPlans = operation({
  method: "GET",
  path: "/plans",
  operationId: "listPlans",
  summary: "List plans, newest first",
  tag: "Plans",
  scope: "plans:read",
  query: pagingQuery,
  success: { status: 200, description: "One page of plans", data: planPageAnswer },
});

export const getPlanBoard = operation({
  method: "GET",
  path: "/plans/{id}/board",
  operationId: "getPlanBoard",
  summary: "A plan's dues board: members × periods",
  description:
    "One page of members, each period's cell the best outcome over its rounds, and what each owes; the per-period totals are over every member whatever the page.",
  tag: "Plans",
  scope: "plans:read",
  params: z.object({ id: z.string().meta({ description: "The plan's id (a UUID)" }) }),
  query: pagingQuery.extend({
    periods: z.coerce
      .number({ error: "periods is a whole number from 1 to 24" })
      .int("periods is a whole number from 1 to 24")
      .min(1, "periods is a whole number from 1 to 24")
      .max(24, "periods is a whole number from 1 to 24")
      .default(12)
      .meta({ description: "How many periods up to now to show" }),
    owing: z
      .enum(["true", "false"], { error: "owing is true or false" })
      .default("false")
      .transform((v) => v === "true")
      .meta({ description: "true: only members who owe in the shown periods" }),
  }),
  success: { status: 200, description: "One page of the board", data: boardAnswer },
});

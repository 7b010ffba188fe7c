import { z } from "zod";

import { ASK_AGAIN_STATES } from "@/lib/client/campaigns/constants";
import { campaignNameSchema, csvFileSchema } from "@/lib/client/campaigns/schemas";
import { pageParamSchema } from "@/lib/client/http/page-param";
import { descriptionSchema, nairaAmountSchema, tagSchema } from "@/lib/client/requests/schemas";
import { FIRST_DAY, LAST_DAY } from "@/lib/client/time/day-param";
import { isTimeZone } from "@/lib/client/time/zone";

import { FREQUENCIES } from "./schedule";

// Shared by the plan form (components/plans/new-plan-form.tsx) and POST/PATCH /api/plans (docs/architecture.md "Plans").

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const isRealDate = (d: string) => DATE.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

const dateSchema = (what: string) =>
  z
    .string({ error: `Enter the ${what} as YYYY-MM-DD` })
    .trim()
    .refine(isRealDate, `Enter the ${what} as a real date, YYYY-MM-DD`)
    // Every day the schedule works out lies in the years it knows (docs/decisions.md, "Bounded days").
    .refine((d) => !isRealDate(d) || (d >= FIRST_DAY && d <= LAST_DAY), `Enter the ${what} between ${FIRST_DAY} and ${LAST_DAY}`);

/** Blank form fields (multipart sends "") are absent. */
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

/** The longest period key ("2026-W48"): a template must fit the description limit with it filled in. */
const LONGEST_PERIOD = "2026-W48";

export const scheduleFieldsSchema = z.object({
  frequency: z.enum(FREQUENCIES, { error: "Choose weekly, monthly or quarterly" }),
  day: z.coerce.number({ error: "Enter the day" }).int("Enter a whole day"),
  sendAt: z
    .string({ error: "Enter the send time as HH:MM" })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter the send time as HH:MM on a 24-hour clock (09:00)"),
  startsOn: dateSchema("start date"),
  endsOn: z.preprocess(blank, dateSchema("end date").nullish()).transform((v) => v ?? null),
  timeZone: z.preprocess(blank, z.string().trim().refine(isTimeZone, "Unknown time zone: use an IANA name such as Africa/Lagos").optional()),
});

/** The day fits the frequency, and the plan ends on or after it starts (each on its own field). */
function checkSchedule(v: { frequency: string; day: number; startsOn: string; endsOn: string | null }, ctx: z.RefinementCtx): void {
  const [low, high, words] = v.frequency === "weekly" ? [1, 7, "1 (Monday) to 7 (Sunday)"] : [1, 28, "1 to 28 (every month has it)"];
  if (v.day < low || v.day > high) ctx.addIssue({ code: "custom", path: ["day"], message: `For a ${v.frequency} plan, choose a day from ${words}` });
  if (v.endsOn !== null && v.endsOn < v.startsOn) ctx.addIssue({ code: "custom", path: ["endsOn"], message: "The end date is before the start date" });
}

const chaseSchema = z.object({
  chaseAfterHours: z.preprocess(
    blank,
    z.coerce
      .number({ error: "Enter hours" })
      .int("Enter whole hours")
      .min(1, "At least 1 hour")
      .max(24 * 30, "At most 720 hours (30 days)")
      .optional(),
  ),
  chaseTimes: z.preprocess(
    blank,
    z.coerce.number({ error: "Enter a number" }).int("Enter a whole number").min(1, "At least once").max(5, "At most 5 rounds").optional(),
  ),
  chaseInclude: z.preprocess(
    (v) => (v === undefined || v === "" ? undefined : Array.isArray(v) ? v : [v]),
    z.array(z.enum(ASK_AGAIN_STATES, { error: "Choose from declined, failed and unanswered" })).optional(),
  ),
});

function checkChase(v: z.infer<typeof chaseSchema>, ctx: z.RefinementCtx): void {
  const set = [v.chaseAfterHours, v.chaseTimes].filter((x) => x !== undefined).length + (v.chaseInclude?.length ? 1 : 0);
  if (set === 0 || set === 3) return;
  const message = "To chase automatically, give the hours to wait, how many rounds and whom to ask again (or leave all three empty)";
  if (v.chaseAfterHours === undefined) ctx.addIssue({ code: "custom", path: ["chaseAfterHours"], message });
  if (v.chaseTimes === undefined) ctx.addIssue({ code: "custom", path: ["chaseTimes"], message });
  if (!v.chaseInclude?.length) ctx.addIssue({ code: "custom", path: ["chaseInclude"], message });
}

const planFieldsShape = {
  name: campaignNameSchema,
  descriptionTemplate: descriptionSchema.refine(
    (t) => descriptionSchema.safeParse(t.replaceAll("{period}", LONGEST_PERIOD)).success,
    "With {period} filled in, the description is too long",
  ),
  ...scheduleFieldsSchema.shape,
  ...chaseSchema.shape,
};

function checkPlan(v: z.infer<typeof scheduleFieldsSchema> & z.infer<typeof chaseSchema>, ctx: z.RefinementCtx): void {
  checkSchedule(v, ctx);
  checkChase(v, ctx);
}

/** POST /api/plans's fields (the roster file is read apart) and the new-plan form's. */
export const planFieldsSchema = z.object(planFieldsShape).superRefine(checkPlan);
export type PlanFields = z.infer<typeof planFieldsSchema>;

/** The new-plan form (components/plans/new-plan-form.tsx): the handler's fields, and the roster file checked as a campaign's is. */
export const planUploadFormSchema = z.object({ ...planFieldsShape, file: csvFileSchema }).superRefine(checkPlan);

/** A member's own description (blank: the plan's template), held to the request form's rules with `{period}` filled in. */
const ownDescriptionSchema = z
  .string()
  .trim()
  .optional()
  .default("")
  .superRefine((d, ctx) => {
    if (d === "") return;
    const filled = descriptionSchema.safeParse(d.replaceAll("{period}", LONGEST_PERIOD));
    if (!filled.success) ctx.addIssue({ code: "custom", message: filled.error.issues[0]?.message ?? "This description cannot be sent" });
  });

const memberSchema = z.object({ tag: tagSchema, amount: nairaAmountSchema, description: ownDescriptionSchema });

/** PATCH /api/plans/:id: one change at a time: the status, the members, or the schedule. */
export const planPatchSchema = z.union([
  z.object({ status: z.enum(["pause", "resume", "end"], { error: "Choose pause, resume or end" }) }).strict(),
  z
    .object({
      members: z
        .object({
          add: z.array(memberSchema).max(1000).default([]),
          remove: z.array(tagSchema).max(1000).default([]),
          change: z
            .array(z.object({ tag: tagSchema, amount: nairaAmountSchema }))
            .max(1000)
            .default([]),
        })
        .refine((m) => m.add.length + m.remove.length + m.change.length > 0, "Add, remove or change at least one member"),
    })
    .strict(),
  z
    .object({
      schedule: scheduleFieldsSchema.omit({ timeZone: true }).superRefine(checkSchedule),
    })
    .strict(),
]);
export type PlanPatch = z.infer<typeof planPatchSchema>;

/** What the plan page's "Change members" form can do to one member at a time. */
export const MEMBER_CHANGES = ["add", "remove", "change"] as const;

/** The "Change members" form: one member added, removed or re-priced, sent as PATCH /api/plans/:id's `members`. */
export const memberChangeFormSchema = z
  .object({
    action: z.enum(MEMBER_CHANGES, { error: "Choose add, remove or change" }),
    tag: tagSchema,
    amount: z.string().optional().default(""),
  })
  .superRefine((v, ctx) => {
    if (v.action === "remove") return;
    const amount = nairaAmountSchema.safeParse(v.amount);
    if (!amount.success) ctx.addIssue({ code: "custom", path: ["amount"], message: amount.error.issues[0]?.message ?? "Enter an amount in naira" });
  })
  .transform(({ action, tag, amount }) => {
    const naira = action === "remove" ? "" : nairaAmountSchema.parse(amount);
    return {
      members: {
        add: action === "add" ? [{ tag, amount: naira, description: "" }] : [],
        remove: action === "remove" ? [tag] : [],
        change: action === "change" ? [{ tag, amount: naira }] : [],
      },
    };
  });

export const runPeriodSchema = z.object({
  period: z
    .string({ error: "Name the period to run, such as 2026-11, 2026-W48 or 2026-Q4" })
    .trim()
    .regex(/^\d{4}-(W\d{2}|\d{2}|Q[1-4])$/, "Name the period as 2026-11 (monthly), 2026-W48 (weekly) or 2026-Q4 (quarterly)"),
});

export const plansQuerySchema = z.object({ page: pageParamSchema.default(1) });

/** One plan (its page and GET/PATCH /api/plans/:id, POST …/run): `members=` is the roster's page, apart from the board's `page=`. */
export const planQuerySchema = z.object({ members: pageParamSchema.default(1) });

export const boardQuerySchema = z.object({
  periods: z.coerce.number().int().min(1).max(24).catch(12).default(12),
  owing: z
    .enum(["1", "true"])
    .optional()
    .catch(undefined)
    .transform((v) => v !== undefined),
  format: z.enum(["json", "csv"]).catch("json").default("json"),
  page: pageParamSchema.default(1),
});

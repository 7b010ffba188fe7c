import { z } from "zod";

import { payPageCreateSchema, payPagePatchSchema, type PayPageCreate, type PayPagePatch } from "@/lib/client/pay-pages/schemas";
import { nairaAmountSchema } from "@/lib/client/requests/schemas";
import { isoInZone, wallTime } from "@/lib/client/time/zone";

import type { PayPageFormValues } from "./form-values";

// The pay page forms' check, loaded by their lazy resolver with the first submit, never with the page: what was typed
// becomes the handler's body, checked with the handler's own schema (docs/architecture.md "Forms"). Each problem is
// named at the control it belongs to (the amount typed, not the amount's shape).

const valuesSchema = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  amount: z.object({ kind: z.enum(["fixed", "range"]), fixed: z.string(), min: z.string(), max: z.string() }),
  fields: z.array(z.object({ label: z.string(), required: z.boolean(), reference: z.boolean() })),
  planId: z.string(),
  active: z.boolean(),
  expiresAt: z.string(),
  maxPayments: z.string(),
  successMessage: z.string(),
  dailyLimit: z.string(),
});

interface Issue {
  path: PropertyKey[];
  message: string;
}

const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;
const WHOLE = /^\d{1,9}$/;

/** A typed whole number: "" is `empty`; anything else not a whole number an issue (and NaN, which the schema refuses too). */
function wholeOf<E>(text: string, path: string, empty: E, message: string, issues: Issue[]): number | E {
  const t = text.trim();
  if (t === "") return empty;
  if (WHOLE.test(t)) return Number(t);
  issues.push({ path: [path], message });
  return Number.NaN;
}

/** What both forms send, read from what was typed, and the problems found on the way. */
function bodyOf(v: PayPageFormValues, timeZone: string) {
  const issues: Issue[] = [];
  if (v.title.trim() === "") issues.push({ path: ["title"], message: "Give the page a title" });
  const typed = v.amount.kind === "fixed" ? (["fixed"] as const) : (["min", "max"] as const);
  for (const key of typed) {
    const checked = nairaAmountSchema.safeParse(v.amount[key]);
    if (!checked.success) issues.push({ path: ["amount", key], message: checked.error.issues[0]?.message ?? "Enter an amount in naira" });
  }
  if (v.planId !== "" && v.amount.kind === "range") issues.push({ path: ["amount"], message: "A plan's page asks a fixed amount (the member's dues)" });
  if (v.fields.filter((f) => f.reference).length > 1) issues.push({ path: ["fields"], message: "At most one question is your reference" });
  let expiresAt: string | null = null;
  if (v.expiresAt !== "") {
    const t = LOCAL_TIME.exec(v.expiresAt);
    if (t?.[1]) expiresAt = isoInZone(wallTime(t[1], Number(t[2]) * 60 + Number(t[3]), timeZone), timeZone);
    else issues.push({ path: ["expiresAt"], message: "Choose a date and a time, or leave it empty" });
  }
  const body = {
    title: v.title,
    description: v.description,
    amount: v.amount.kind === "fixed" ? { fixed: v.amount.fixed } : { min: v.amount.min, max: v.amount.max },
    fields: v.fields,
    planId: v.planId === "" ? null : v.planId,
    active: v.active,
    expiresAt,
    maxPayments: wholeOf(v.maxPayments, "maxPayments", null, "A whole number, or leave it empty for no limit", issues),
    successMessage: v.successMessage,
    dailyLimit: wholeOf(v.dailyLimit, "dailyLimit", Number.NaN, "A whole number of submissions a day", issues),
  };
  return { issues, body };
}

/**
 * The form's own problems first, then the schema's, one a control; the amount's shape is left out once an amount is
 * named. A group's own problem ("amount") comes before its controls' ("amount.max"), which the resolver nests under it.
 */
function merged(own: Issue[], schema: readonly Issue[]): Issue[] {
  const amountNamed = own.some((i) => i.path[0] === "amount");
  const seen = new Set<string>();
  return [...own, ...schema.filter((i) => !(amountNamed && i.path.length === 1 && i.path[0] === "amount"))]
    .filter((i) => {
      const key = i.path.map(String).join(".");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.path.length - b.path.length);
}

/** "Make a pay page": POST /api/pay-pages's body. `timeZone`: the clock the expiry is typed on. */
export function payPageCreateFormSchema(timeZone: string) {
  return valuesSchema.transform((v, ctx): PayPageCreate => {
    const { issues, body } = bodyOf(v, timeZone);
    const result = payPageCreateSchema.safeParse({ slug: v.slug, ...body });
    const all = merged(issues, result.success ? [] : result.error.issues);
    for (const issue of all) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return result.success && all.length === 0 ? result.data : z.NEVER;
  });
}

/** "Change a pay page": PATCH /api/pay-pages/:id's body, every field but the slug (printed codes point at it). */
export function payPageEditFormSchema(timeZone: string) {
  return valuesSchema.transform((v, ctx): PayPagePatch => {
    const { issues, body } = bodyOf(v, timeZone);
    const result = payPagePatchSchema.safeParse(body);
    const all = merged(issues, result.success ? [] : result.error.issues);
    for (const issue of all) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return result.success && all.length === 0 ? result.data : z.NEVER;
  });
}

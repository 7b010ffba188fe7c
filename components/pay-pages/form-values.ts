import type { DEFAULT_DAILY_LIMIT, DEFAULT_SUCCESS_MESSAGE, MAX_FIELDS } from "@/lib/client/pay-pages/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";
import { isoInZone } from "@/lib/client/time/zone";

// What the pay page forms hold while a person types (zod-free: the checks load with the first submit, from
// ./form-schema.ts, which turns these into the handler's body).

export interface PayPageFormValues {
  /** Made once, never changed: the edit form ignores it. */
  slug: string;
  title: string;
  description: string;
  /** `kind` picks which of the amounts is sent; the other stays typed in case the person switches back. */
  amount: { kind: "fixed" | "range"; fixed: string; min: string; max: string };
  fields: { label: string; required: boolean; reference: boolean }[];
  /** "" for no plan. */
  planId: string;
  active: boolean;
  /** A `datetime-local` value on the business's clock (TIMEZONE), "" for none. */
  expiresAt: string;
  /** Whole numbers as typed; "" for no most payments. */
  maxPayments: string;
  successMessage: string;
  dailyLimit: string;
}

// The schema's own numbers, typed against it: its module (and zod) loads only with the form's first check.
export const MAX_EXTRA_FIELDS: typeof MAX_FIELDS = 5;
export const DAILY_LIMIT: typeof DEFAULT_DAILY_LIMIT = 500;
export const SUCCESS_MESSAGE: typeof DEFAULT_SUCCESS_MESSAGE = "Paid, thank you.";

export function emptyValues(): PayPageFormValues {
  return {
    slug: "",
    title: "",
    description: "",
    amount: { kind: "fixed", fixed: "", min: "", max: "" },
    fields: [],
    planId: "",
    active: true,
    expiresAt: "",
    maxPayments: "",
    successMessage: SUCCESS_MESSAGE,
    dailyLimit: String(DAILY_LIMIT),
  };
}

/** An instant as a `datetime-local` value on `timeZone`'s clock ("2026-03-11T09:30"). */
export function localInputOf(iso: string, timeZone: string): string {
  return isoInZone(new Date(iso), timeZone).slice(0, 16);
}

/** A page's values, to edit. */
export function valuesOf(page: PayPageView, timeZone: string): PayPageFormValues {
  const a = page.amount;
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    amount: "fixed" in a ? { kind: "fixed", fixed: a.fixed, min: "", max: "" } : { kind: "range", fixed: "", min: a.min, max: a.max },
    fields: page.fields.map((f) => ({ ...f })),
    planId: page.plan?.id ?? "",
    active: page.active,
    expiresAt: page.expiresAt ? localInputOf(page.expiresAt, timeZone) : "",
    maxPayments: page.maxPayments === null ? "" : String(page.maxPayments),
    successMessage: page.successMessage,
    dailyLimit: String(page.dailyLimit),
  };
}

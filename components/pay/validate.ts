// The pay form's own checks before it sends, zod-free (the server's paySubmitSchema has the last word) (docs/architecture.md "Pay pages").
import { NAIRA_RE, nairaToKobo } from "@/lib/client/money";
import { PAYER_TAG_RE } from "@/lib/client/payers/tag";
import type { PayPageAmount } from "@/lib/client/pay-pages/schemas";

import { nairaText } from "./naira";

export interface PayInput {
  tag: string;
  amount: string;
  answers: string[];
}

/** What the form posts, less the check: the tag without its @, the amount only for a page with bounds. */
export interface PayBody {
  tag: string;
  amount?: string;
  fields: string[];
}

/** Errors by the server's keys: "tag", "amount", "fields.<i>". */
export type PayErrors = Record<string, string>;

/** The amount as typed, without thousands commas or spaces. */
function cleanAmount(text: string): string {
  return text.replace(/[,\s]/g, "");
}

export function checkPay(input: PayInput, amount: PayPageAmount, fields: readonly { label: string; required: boolean }[]): PayErrors {
  const errors: PayErrors = {};
  const tag = input.tag.trim();
  if (!tag) errors.tag = "Enter your tag";
  else if (!PAYER_TAG_RE.test(tag)) errors.tag = "A tag is 2–32 letters, digits, dots, hyphens or underscores";
  if (!("fixed" in amount)) {
    const text = cleanAmount(input.amount);
    const kobo = NAIRA_RE.test(text) ? nairaToKobo(text) : null;
    const min = nairaToKobo(amount.min) ?? 0n;
    const max = nairaToKobo(amount.max) ?? 0n;
    if (!text) errors.amount = "Enter an amount";
    else if (kobo === null) errors.amount = "Enter naira, like 5000 or 5000.50";
    else if (kobo < min || kobo > max) errors.amount = `Enter an amount from ${nairaText(amount.min)} to ${nairaText(amount.max)}`;
  }
  fields.forEach((field, i) => {
    const answer = (input.answers[i] ?? "").trim();
    if (field.required && !answer) errors[`fields.${i}`] = `Fill in ${field.label}`;
    else if (answer.length > 100) errors[`fields.${i}`] = "Keep this under 100 characters";
  });
  return errors;
}

export function payBody(input: PayInput, amount: PayPageAmount, fieldCount: number): PayBody {
  const body: PayBody = {
    tag: input.tag.trim().replace(/^@/, ""),
    fields: Array.from({ length: fieldCount }, (_, i) => (input.answers[i] ?? "").trim()),
  };
  if (!("fixed" in amount)) body.amount = cleanAmount(input.amount);
  return body;
}

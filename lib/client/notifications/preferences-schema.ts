import { z } from "zod";

import { EVENT_TYPES, type EventType } from "@/lib/client/events/catalogue";
import { nairaAmountSchema } from "@/lib/client/requests/schemas";

import { CHANNELS, EVENT_LABELS } from "./preferences";

// The body of `PUT /api/me/notifications` (docs/architecture.md "Notifications"); apart from the labels, so a page
// showing the form loads no zod (the server parses).

const channelSchema = z.enum(CHANNELS, { error: "Choose off, dashboard, e-mail at once or the daily digest" });

// Empty means every payment; otherwise an amount, refused with the amount field's own words.
const thresholdSchema = z.union([z.null(), z.string(), z.number()], { error: "Enter an amount in naira, or leave it empty" }).transform((value, ctx) => {
  if (value === null || (typeof value === "string" && value.trim() === "")) return null;
  const amount = nairaAmountSchema.safeParse(value);
  if (amount.success) return amount.data;
  ctx.addIssue({ code: "custom", message: amount.error.issues[0]?.message ?? "Enter an amount in naira" });
  return z.NEVER;
});

/**
 * A type sent "in the daily digest" needs the digest: with it off, what waits for it would never be sent. Refused on
 * the digest's own field, naming the types, so the person turns it on or chooses another way for them.
 */
export function digestNeededFor(choices: Partial<Record<EventType, string>>, digest: boolean): string | null {
  if (digest) return null;
  const waiting = EVENT_TYPES.filter((t) => choices[t] === "digest").map((t) => EVENT_LABELS[t]);
  if (waiting.length === 0) return null;
  return `The daily digest is off, but ${waiting.join(", ")} ${waiting.length === 1 ? "is" : "are"} set to go in it: turn the digest on, or choose another way for ${waiting.length === 1 ? "it" : "them"}`;
}

export const preferencesSchema = z
  .object({
    choices: z.object(Object.fromEntries(EVENT_TYPES.map((t) => [t, channelSchema])) as Record<EventType, typeof channelSchema>).strict(),
    paymentThreshold: thresholdSchema,
    digest: z.boolean({ error: "Say whether the daily digest is wanted" }),
  })
  .superRefine(({ choices, digest }, ctx) => {
    const message = digestNeededFor(choices, digest);
    if (message) ctx.addIssue({ code: "custom", path: ["digest"], message });
  });

/**
 * The account page's form: the same rules with the channels as a list in EVENT_TYPES order (a form field's name cannot
 * hold the dots of `payment.received`), turned into the body the route parses.
 */
export const preferencesFormSchema = z
  .object({
    channels: z.array(channelSchema).length(EVENT_TYPES.length),
    paymentThreshold: preferencesSchema.shape.paymentThreshold,
    digest: preferencesSchema.shape.digest,
  })
  .superRefine(({ channels, digest }, ctx) => {
    const message = digestNeededFor(Object.fromEntries(EVENT_TYPES.map((t, i) => [t, channels[i]])), digest);
    if (message) ctx.addIssue({ code: "custom", path: ["digest"], message });
  })
  .transform(({ channels, paymentThreshold, digest }) => ({
    choices: Object.fromEntries(EVENT_TYPES.map((t, i) => [t, channels[i] ?? "off"])) as Record<EventType, (typeof channels)[number]>,
    paymentThreshold,
    digest,
  }));

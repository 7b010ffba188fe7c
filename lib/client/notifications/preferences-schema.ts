import { z } from "zod";

import { EVENT_TYPES, type EventType } from "@/lib/client/events/catalogue";
import { nairaAmountSchema } from "@/lib/client/requests/schemas";

import { CHANNELS } from "./preferences";

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

export const preferencesSchema = z.object({
  choices: z.object(Object.fromEntries(EVENT_TYPES.map((t) => [t, channelSchema])) as Record<EventType, typeof channelSchema>).strict(),
  paymentThreshold: thresholdSchema,
  digest: z.boolean({ error: "Say whether the daily digest is wanted" }),
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
  .transform(({ channels, paymentThreshold, digest }) => ({
    choices: Object.fromEntries(EVENT_TYPES.map((t, i) => [t, channels[i] ?? "off"])) as Record<EventType, (typeof channels)[number]>,
    paymentThreshold,
    digest,
  }));

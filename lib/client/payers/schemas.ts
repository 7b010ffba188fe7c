import { z } from "zod";

// Shared by the do-not-ask form on a payer's page and PATCH /api/payers/:tag.
export const doNotAskPatchSchema = z.object({
  doNotAsk: z.boolean({ error: "Say whether this person may be asked (true or false)" }),
  note: z.string().trim().max(500, "Keep the note under 500 characters").default(""),
});
export type DoNotAskPatch = z.infer<typeof doNotAskPatchSchema>;

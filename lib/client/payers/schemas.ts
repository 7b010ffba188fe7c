import { z } from "zod";

import { PAYER_FILTERS, PAYER_SORTS } from "./view";

// Shared by the do-not-ask form on a payer's page and PATCH /api/payers/:tag.
export const doNotAskPatchSchema = z.object({
  doNotAsk: z.boolean({ error: "Say whether this person may be asked (true or false)" }),
  note: z.string().trim().max(500, "Keep the note under 500 characters").default(""),
});
export type DoNotAskPatch = z.infer<typeof doNotAskPatchSchema>;

// The payers page's search form: the list's rule (lib/client/payers/search.ts reads the same fields from the URL).
export const payerListFormSchema = z.object({
  q: z.string().trim().max(64, "At most 64 characters").default(""),
  filter: z.enum(["", ...PAYER_FILTERS]).default(""),
  sort: z.enum(PAYER_SORTS).default("recent"),
});

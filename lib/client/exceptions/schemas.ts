import { z } from "zod";

// Shared by the resolve form on /exceptions and POST /api/exceptions/:id/resolve.
export const resolveExceptionSchema = z.object({
  note: z
    .string({ error: "Write a note saying how this was settled" })
    .trim()
    .min(1, "Write a note saying how this was settled")
    .max(1000, "Keep the note under 1,000 characters"),
  // The service's request id to link an unlinked payment to; empty or absent: resolve without linking.
  requestId: z
    .string()
    .trim()
    .max(64, "A request id is at most 64 characters")
    .regex(/^[A-Za-z0-9_-]*$/, "A request id is letters, digits, - and _")
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type ResolveExceptionInput = z.input<typeof resolveExceptionSchema>;

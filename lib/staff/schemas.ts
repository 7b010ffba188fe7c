import { z } from "zod";

import { ROLES } from "@/lib/auth/roles";

// Shared by the staff form and the /api/staff handlers.
export const staffCreateSchema = z
  .object({
    email: z
      .string({ error: "Enter an e-mail address" })
      .trim()
      .toLowerCase()
      .pipe(z.email("Enter an e-mail address, like name@company.com").max(254, "At most 254 characters")),
    name: z.string({ error: "Enter the person's name" }).trim().min(1, "Enter the person's name").max(100, "At most 100 characters"),
    role: z.enum(ROLES, { message: "Choose admin, operator or viewer" }),
    password: z.string({ error: "Enter a password of at least 10 characters" }).min(10, "At least 10 characters").max(200, "At most 200 characters"),
  })
  .strict();

export const staffPatchSchema = z
  .object({
    role: z.enum(ROLES, { message: "Choose admin, operator or viewer" }).optional(),
    disabled: z.boolean({ message: "Must be true or false" }).optional(),
  })
  .strict()
  .refine((v) => v.role !== undefined || v.disabled !== undefined, { message: "Send a role or disabled" });

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter your e-mail address").max(254)),
  password: z.string().min(1, "Enter your password").max(200),
});

export type StaffCreateInput = z.infer<typeof staffCreateSchema>;
export type StaffPatchInput = z.infer<typeof staffPatchSchema>;

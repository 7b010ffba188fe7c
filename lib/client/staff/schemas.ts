import { z } from "zod";

import { ROLES } from "@/lib/client/auth/roles";

// The one password rule: new accounts and password changes alike.
const newPassword = (field = "a password") =>
  z
    .string({ error: `Enter ${field} of at least 10 characters` })
    .min(10, "At least 10 characters")
    .max(200, "At most 200 characters");

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
    password: newPassword(),
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
  // The authenticator app's 6 digits or a recovery code; empty means not given (the API's `code` field).
  code: z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v) => v || undefined),
});

export const SIGN_IN_CODE_MISSING = "Enter the 6-digit code from your authenticator app.";

/**
 * The sign-in form and its action (app/sign-in/actions.ts): signInSchema plus the step the form is on; on the
 * code step (the password was right and the account has two-step sign-in) the code is required.
 */
export const signInFormSchema = signInSchema
  .extend({ step: z.enum(["password", "code"]) })
  .refine((v) => v.step !== "code" || v.code !== undefined, { message: SIGN_IN_CODE_MISSING, path: ["code"] });

// The account page's forms and the /api/me handlers.
const passwordChangeFields = {
  currentPassword: z.string({ error: "Enter your current password" }).min(1, "Enter your current password").max(200, "At most 200 characters"),
  newPassword: newPassword("a new password"),
};
const notTheCurrentPassword = (v: { currentPassword: string; newPassword: string }) => v.currentPassword !== v.newPassword;
const NOT_THE_CURRENT_PASSWORD = { message: "Choose a password different from the current one", path: ["newPassword"] };

export const passwordChangeSchema = z.object(passwordChangeFields).strict().refine(notTheCurrentPassword, NOT_THE_CURRENT_PASSWORD);

/** The account page's password form: the same fields and rule, plus the new password typed twice (checked in the browser; not sent). */
export const passwordChangeFormSchema = z
  .object({ ...passwordChangeFields, confirmNewPassword: z.string() })
  .refine(notTheCurrentPassword, NOT_THE_CURRENT_PASSWORD)
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    message: "The two new passwords do not match; type the same one twice",
    path: ["confirmNewPassword"],
  });

// Apps show the code as "123 456": spaces anywhere are dropped (a recovery code has none either).
const withoutSpaces = (code: string) => code.replace(/\s+/g, "");

const appCode = z
  .string({ error: "Enter the 6-digit code from your authenticator app" })
  .transform(withoutSpaces)
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));

const ownPassword = z.string({ error: "Enter your password" }).min(1, "Enter your password").max(200, "At most 200 characters");

/** Set-up needs the password, so a stolen session alone cannot turn two-step sign-in on and lock the owner out. */
export const twoStepSetupSchema = z.object({ password: ownPassword }).strict();

export const twoStepEnableSchema = z.object({ password: ownPassword, code: appCode }).strict();

/** The password and a current code: turning two-step sign-in off, or renewing the recovery codes. */
export const twoStepConfirmSchema = z
  .object({
    password: ownPassword,
    code: z
      .string({ error: "Enter a code from your authenticator app or a recovery code" })
      .transform(withoutSpaces)
      .pipe(z.string().min(6, "Enter a code from your authenticator app or a recovery code").max(40, "At most 40 characters")),
  })
  .strict();

// PATCH /api/settings: any of the team's settings; each form sends its own (two-step sign-in, the chasing policy, the name).
export const settingsPatchSchema = z
  .object({
    require2fa: z.boolean({ error: "Must be true or false" }).optional(),
    declineCooldownHours: z
      .number({ error: "Enter a number of hours" })
      .int("Enter whole hours")
      .min(0, "Enter 0 or more hours")
      .max(8760, "At most a year (8,760 hours)")
      .optional(),
    maxAsksPerTag: z.number({ error: "Enter a number" }).int("Enter a whole number").min(1, "At least 1").max(20, "At most 20").optional(),
    // The name payers see on pay pages.
    businessName: z
      .string({ error: "Enter the business's name" })
      .trim()
      .min(1, "Enter the business's name")
      .max(80, "At most 80 characters")
      .refine((n) => !/[\u0000-\u001f\u007f]/.test(n), "Remove line breaks and control characters")
      .optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Send at least one setting to change");

export type StaffCreateInput = z.infer<typeof staffCreateSchema>;
export type StaffPatchInput = z.infer<typeof staffPatchSchema>;

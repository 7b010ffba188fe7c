import { describe, expect, it } from "vitest";

import { campaignUploadFormSchema, MAX_CAMPAIGN_BYTES } from "@/lib/client/campaigns/schemas";
import { memberChangeFormSchema, planFieldsSchema, planUploadFormSchema } from "@/lib/client/plans/schemas";
import { passwordChangeFormSchema, passwordChangeSchema, signInFormSchema, SIGN_IN_CODE_MISSING, twoStepEnableSchema } from "@/lib/client/staff/schemas";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("the forms' schemas", () => {
  it("password form: the handler's rule, plus the new password typed the same twice", () => {
    const ok = { currentPassword: "old-password", newPassword: "a-new-password", confirmNewPassword: "a-new-password" };
    expect(passwordChangeFormSchema.safeParse(ok).success).toBe(true);
    expect(messages(passwordChangeFormSchema.safeParse({ ...ok, confirmNewPassword: "a-new-passwordx" }))).toEqual([
      "confirmNewPassword: The two new passwords do not match; type the same one twice",
    ]);
    const same = { currentPassword: "same-password", newPassword: "same-password" };
    expect(messages(passwordChangeFormSchema.safeParse({ ...same, confirmNewPassword: "same-password" }))).toEqual(
      messages(passwordChangeSchema.safeParse(same)),
    );
  });

  it("codes: spaces anywhere are dropped, as apps show them", () => {
    expect(twoStepEnableSchema.parse({ password: "pw", code: " 123 456 " }).code).toBe("123456");
  });

  it("sign-in: the code step needs the code; the password step does not", () => {
    const base = { email: " Ada@Example.com ", password: "pw", code: "" };
    expect(signInFormSchema.parse({ ...base, step: "password" })).toEqual({ email: "ada@example.com", password: "pw", code: undefined, step: "password" });
    expect(messages(signInFormSchema.safeParse({ ...base, step: "code" }))).toEqual([`code: ${SIGN_IN_CODE_MISSING}`]);
  });

  it("campaign upload: a name, and one non-empty file within the server's limit", () => {
    const file = (size: number) => new File([new Uint8Array(size)], "rows.csv", { type: "text/csv" });
    expect(campaignUploadFormSchema.safeParse({ name: "Dues", file: file(10) }).success).toBe(true);
    expect(messages(campaignUploadFormSchema.safeParse({ name: " ", file: undefined }))).toEqual([
      "name: Give the campaign a name",
      "file: Choose the CSV file to upload",
    ]);
    expect(messages(campaignUploadFormSchema.safeParse({ name: "Dues", file: file(0) }))[0]).toMatch(/^file: The file is empty/);
    expect(campaignUploadFormSchema.safeParse({ name: "Dues", file: file(MAX_CAMPAIGN_BYTES) }).success).toBe(true);
    expect(messages(campaignUploadFormSchema.safeParse({ name: "Dues", file: file(MAX_CAMPAIGN_BYTES + 1) }))[0]).toBe(
      "file: The file is larger than 2 MiB (2,097,153 bytes). Split it into smaller files.",
    );
  });

  it("plan form: the handler's fields and their checks, plus the roster file checked as a campaign's", () => {
    const file = new File([new Uint8Array(10)], "roster.csv", { type: "text/csv" });
    const fields = { name: "Dues", descriptionTemplate: "{period} dues", frequency: "monthly", day: "1", sendAt: "09:00", startsOn: "2026-12-01", endsOn: "" };
    expect(planUploadFormSchema.parse({ ...fields, file, chaseInclude: [] })).toEqual({ ...planFieldsSchema.parse(fields), file, chaseInclude: [] });
    expect(messages(planUploadFormSchema.safeParse({ ...fields, day: "31", file }))).toEqual([
      "day: For a monthly plan, choose a day from 1 to 28 (every month has it)",
    ]);
    expect(messages(planUploadFormSchema.safeParse({ ...fields, file: undefined }))).toEqual(["file: Choose the CSV file to upload"]);
    expect(messages(planUploadFormSchema.safeParse({ ...fields, file, chaseAfterHours: "24", chaseInclude: [] })).map((m) => m.split(":")[0])).toEqual([
      "chaseTimes",
      "chaseInclude",
    ]);
  });

  it("change members: one member added, removed or re-priced, as PATCH /api/plans/:id's members", () => {
    expect(memberChangeFormSchema.parse({ action: "add", tag: "@Ada.Obi", amount: "1,500" })).toEqual({
      members: { add: [{ tag: "Ada.Obi", amount: "1500.00", description: "" }], remove: [], change: [] },
    });
    expect(memberChangeFormSchema.parse({ action: "remove", tag: "ada.obi", amount: "" })).toEqual({ members: { add: [], remove: ["ada.obi"], change: [] } });
    expect(memberChangeFormSchema.parse({ action: "change", tag: "ada.obi", amount: "200" }).members.change).toEqual([{ tag: "ada.obi", amount: "200.00" }]);
    expect(messages(memberChangeFormSchema.safeParse({ action: "change", tag: "ada.obi", amount: "" }))).toEqual(["amount: Enter an amount in naira"]);
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";

import { isApiError } from "./api-error";
import { parseFields, parseJsonBody } from "./body";

// A JSON body's 422 names each field, a nested one by its dotted path (PATCH /api/plans/:id's `schedule.day`).

const schema = z.object({
  name: z.string().min(1, "Enter a name"),
  schedule: z.object({ day: z.number().max(28, "Choose a day from 1 to 28"), sendAt: z.string().regex(/^\d\d:\d\d$/, "Enter HH:MM") }),
});

async function refusal(body: unknown): Promise<{ status: number; data: unknown }> {
  const request = new Request("http://localhost/x", { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    await parseJsonBody(request, schema);
  } catch (error) {
    if (isApiError(error)) return { status: error.status, data: error.data };
    throw error;
  }
  throw new Error("the body was taken");
}

describe("a JSON body's field errors", () => {
  it("names a nested field by its dotted path, each on its own", async () => {
    expect(await refusal({ name: "", schedule: { day: 31, sendAt: "9am" } })).toEqual({
      status: 422,
      data: {
        fieldErrors: { name: ["Enter a name"], "schedule.day": ["Choose a day from 1 to 28"], "schedule.sendAt": ["Enter HH:MM"] },
        formErrors: [],
      },
    });
  });
});

describe("parseFields (a query string's or a form's values)", () => {
  const query = z.object({ from: z.string().regex(/^\d{4}-\d\d-\d\d$/, "not a day"), format: z.enum(["xero", "quickbooks"]).optional() });
  const refused = (values: unknown, message?: string) => {
    try {
      parseFields(query, values, message);
    } catch (error) {
      if (isApiError(error)) return { status: error.status, message: error.message, data: error.data };
      throw error;
    }
    throw new Error("the values were taken");
  };

  it("answers the values when they are valid", () => {
    expect(parseFields(query, { from: "2026-11-28", format: "xero" })).toEqual({ from: "2026-11-28", format: "xero" });
  });

  it("refuses with 422, saying the first field's reason unless the caller names the message", () => {
    expect(refused({ from: "28/11/2026" })).toEqual({
      status: 422,
      message: "from: not a day.",
      data: { fieldErrors: { from: ["not a day"] }, formErrors: [] },
    });
    expect(refused({ from: "2026-11-28", format: "sage" }, "Choose xero or quickbooks.").message).toBe("Choose xero or quickbooks.");
    expect(refused("not an object").message).toMatch(/expected object/i);
  });
});

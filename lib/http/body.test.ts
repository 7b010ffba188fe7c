import { describe, expect, it } from "vitest";
import { z } from "zod";

import { isApiError } from "./api-error";
import { MAX_JSON_BYTES, parseFields, parseJsonBody, readJsonBody } from "./body";

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

  it("refuses with code validation_failed unless the caller names a more precise one", () => {
    const codeOf = (code?: Parameters<typeof parseFields>[3]) => {
      try {
        parseFields(query, { from: "28/11/2026" }, undefined, code);
      } catch (error) {
        if (isApiError(error)) return error.code;
        throw error;
      }
      throw new Error("the values were taken");
    };
    expect(codeOf()).toBe("validation_failed");
    expect(codeOf("idempotency_key_missing")).toBe("idempotency_key_missing");
  });
});

describe("a JSON body's refusals before its values", () => {
  const post = (body: string, type = "application/json") =>
    readJsonBody(new Request("http://localhost/x", { method: "POST", headers: { "content-type": type }, body })).then(
      () => null,
      (error: unknown) => (isApiError(error) ? [error.status, error.code] : error),
    );

  it("answers 415, 413 and 400 with their codes", async () => {
    expect(await post("{}", "text/plain")).toEqual([415, "unsupported_media_type"]);
    expect(await post(JSON.stringify({ x: "y".repeat(MAX_JSON_BYTES) }))).toEqual([413, "payload_too_large"]);
    expect(await post("{")).toEqual([400, "validation_failed"]);
    expect(await post('{"a":1}')).toBeNull();
  });
});

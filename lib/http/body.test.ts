import { describe, expect, it } from "vitest";
import { z } from "zod";

import { isApiError } from "./api-error";
import { parseJsonBody } from "./body";

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

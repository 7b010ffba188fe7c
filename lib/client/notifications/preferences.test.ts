import { describe, expect, it } from "vitest";

import { EVENT_TYPES } from "@/lib/client/events/catalogue";

import { defaultPreferences } from "./preferences";
import { preferencesFormSchema, preferencesSchema } from "./preferences-schema";

describe("notification preferences", () => {
  it("default by role: admins and operators are e-mailed what needs a person and shown payments; viewers get the digest only", () => {
    for (const role of ["admin", "operator"] as const) {
      const p = defaultPreferences(role);
      expect(Object.entries(p.choices).filter(([, c]) => c !== "off")).toEqual([
        ["payment.received", "dashboard"],
        ["campaign.finished", "email"],
        ["plan.period_missed", "email"],
        ["exception.opened", "email"],
      ]);
      expect(p.digest).toBe(true);
    }
    const viewer = defaultPreferences("viewer");
    expect(Object.values(viewer.choices).every((c) => c === "off")).toBe(true);
    expect(viewer.digest).toBe(true);
  });

  it("reads the form's list of channels back into one choice per event type, and the threshold as naira or none", () => {
    const channels = EVENT_TYPES.map((_, i) => (i === 0 ? "email" : "off"));
    const parsed = preferencesFormSchema.parse({ channels, paymentThreshold: "5,000", digest: false });
    expect(parsed.choices["payment.received"]).toBe("email");
    expect(parsed.choices["exception.opened"]).toBe("off");
    expect(parsed.paymentThreshold).toBe("5000.00");
    expect(preferencesSchema.parse({ ...parsed, paymentThreshold: "" }).paymentThreshold).toBeNull();
  });

  it("refuses an unknown channel, a missing type and a threshold that is no amount, each with a message", () => {
    const choices = defaultPreferences("admin").choices;
    const bad = preferencesSchema.safeParse({ choices: { ...choices, "payment.received": "sms" }, paymentThreshold: null, digest: true });
    expect(bad.success).toBe(false);
    const { "payer.updated": _dropped, ...missing } = choices;
    expect(preferencesSchema.safeParse({ choices: missing, paymentThreshold: null, digest: true }).success).toBe(false);
    const amount = preferencesSchema.safeParse({ choices, paymentThreshold: "lots", digest: true });
    expect(amount.success ? null : amount.error.issues[0]?.message).toBe("Enter an amount like 1500 or 1500.50");
  });

  it("refuses a type kept for the daily digest with the digest off, on the digest's field, in the body and the form alike", () => {
    const choices = { ...defaultPreferences("admin").choices, "payment.received": "digest", "exception.opened": "digest" } as const;
    const body = preferencesSchema.safeParse({ choices, paymentThreshold: null, digest: false });
    expect(body.success).toBe(false);
    expect(body.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["digest", "The daily digest is off, but A payment arrived, An exception opened are set to go in it: turn the digest on, or choose another way for them"],
    ]);
    const channels = EVENT_TYPES.map((t) => choices[t]);
    const form = preferencesFormSchema.safeParse({ channels, paymentThreshold: "", digest: false });
    expect(form.error?.issues.map((i) => i.path.join("."))).toEqual(["digest"]);
    // With the digest on, or with nothing kept for it, either is fine.
    expect(preferencesSchema.safeParse({ choices, paymentThreshold: null, digest: true }).success).toBe(true);
    expect(preferencesFormSchema.safeParse({ channels, paymentThreshold: "", digest: true }).success).toBe(true);
    expect(preferencesSchema.safeParse({ choices: defaultPreferences("admin").choices, paymentThreshold: null, digest: false }).success).toBe(true);
  });
});

// The pay form's zod-free checks, its reading of answers, and that the worker's solver makes what the server verifies.
import { createChallenge, solveChallenge, verifySolution } from "altcha-lib";
import { deriveKey as serverDeriveKey } from "altcha-lib/algorithms/sha";
import { deriveKey as webDeriveKey } from "altcha-lib/algorithms/web/sha";
import { describe, expect, it } from "vitest";

import { fieldErrorsOf, retryAfterSeconds, waitText } from "./answers";
import { amountAsked, nairaText } from "./naira";
import { encodeCheck } from "./pow";
import { checkPay, payBody } from "./validate";

const fields = [
  { label: "Member number", required: true },
  { label: "Note", required: false },
];

describe("naira", () => {
  it("reads as the payer expects", () => {
    expect(nairaText("5000")).toBe("₦5,000.00");
    expect(nairaText("1234567.5")).toBe("₦1,234,567.50");
    expect(amountAsked({ fixed: "5000.00" })).toBe("₦5,000.00");
    expect(amountAsked({ min: "1000", max: "50000" })).toBe("₦1,000.00 to ₦50,000.00");
  });
});

describe("checkPay", () => {
  const range = { min: "1000.00", max: "50000.00" };

  it("passes a good answer and sends the tag without @, the amount only for a range", () => {
    const input = { tag: " @ada_obi ", amount: "5,000.50", answers: ["A-17", ""] };
    expect(checkPay(input, range, fields)).toEqual({});
    expect(payBody(input, range, 2)).toEqual({ tag: "ada_obi", amount: "5000.50", fields: ["A-17", ""] });
    expect(payBody(input, { fixed: "5000.00" }, 2)).toEqual({ tag: "ada_obi", fields: ["A-17", ""] });
  });

  it("says what is wrong, by the server's keys", () => {
    expect(checkPay({ tag: "", amount: "", answers: ["", ""] }, range, fields)).toEqual({
      tag: "Enter your tag",
      amount: "Enter an amount",
      "fields.0": "Fill in Member number",
    });
    expect(checkPay({ tag: "a", amount: "12.345", answers: ["x"] }, range, fields)).toMatchObject({ tag: expect.any(String), amount: expect.any(String) });
    expect(checkPay({ tag: "ada", amount: "999.99", answers: ["x"] }, range, fields).amount).toBe("Enter an amount from ₦1,000.00 to ₦50,000.00");
    expect(checkPay({ tag: "ada", amount: "", answers: ["x"] }, { fixed: "5000.00" }, fields)).toEqual({});
  });
});

describe("answers", () => {
  it("takes the first reason per field from fieldErrors or fields", () => {
    expect(fieldErrorsOf({ fieldErrors: { tag: ["Bad tag", "Other"], "fields.1": ["Too long"] } })).toEqual({ tag: "Bad tag", "fields.1": "Too long" });
    expect(fieldErrorsOf({ fields: { altcha: ["Try again"] } })).toEqual({ altcha: "Try again" });
    expect(fieldErrorsOf({})).toEqual({});
  });

  it("reads Retry-After as seconds or a date, and says the wait in words", () => {
    expect(retryAfterSeconds(new Response(null, { headers: { "Retry-After": "120" } }))).toBe(120);
    const at = new Date(Date.UTC(2030, 0, 1, 0, 5)).toUTCString();
    expect(retryAfterSeconds(new Response(null, { headers: { "Retry-After": at } }), Date.UTC(2030, 0, 1))).toBe(300);
    expect(retryAfterSeconds(new Response(null))).toBeNull();
    expect([waitText(30), waitText(60), waitText(600), waitText(7200), waitText(null)]).toEqual([
      "in 30 seconds",
      "in a minute",
      "in 10 minutes",
      "in 2 hours",
      "in a little while",
    ]);
  });
});

describe("the proof-of-work", () => {
  it("solved with the worker's web deriveKey, encodes what the server's verifySolution accepts", async () => {
    const secrets = { hmacSignatureSecret: "test-signature-secret", hmacKeySignatureSecret: "test-key-secret" };
    const challenge = await createChallenge({
      algorithm: "SHA-256",
      cost: 1,
      counter: 300,
      deriveKey: serverDeriveKey,
      expiresAt: new Date(Date.now() + 60_000),
      ...secrets,
    });
    const solution = await solveChallenge({ challenge, deriveKey: webDeriveKey });
    expect(solution).not.toBeNull();
    if (!solution) return;
    const decoded = JSON.parse(Buffer.from(encodeCheck(challenge, solution), "base64").toString("utf8")) as {
      challenge: typeof challenge;
      solution: typeof solution;
    };
    expect(decoded).toEqual({ challenge, solution });
    const result = await verifySolution({ challenge: decoded.challenge, solution: decoded.solution, deriveKey: serverDeriveKey, ...secrets });
    expect(result.verified).toBe(true);
  });
});

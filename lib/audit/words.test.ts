// Every audit action has its words: a new code in AUDIT_ACTIONS without a sentence, a filter label and a target
// kind fails here, so the audit page never shows a bare code (docs/decisions.md, "The daily desk").
import { describe, expect, it } from "vitest";

import { AUDIT_ACTIONS } from "./write";
import { AUDIT_WORDS, auditLabel, auditSentence, auditTargetHref, auditTargetText } from "./words";

const CODE = /^[a-z0-9_]+\.[a-z0-9_.]+$/;

describe("the audit log in words", () => {
  it.each(AUDIT_ACTIONS)("%s has a label, a target kind and a sentence in words", (action) => {
    const words = AUDIT_WORDS[action];
    expect(words, `${action} has no words in lib/audit/words.ts`).toBeDefined();
    expect(words.label.trim().length).toBeGreaterThan(3);
    expect(words.label).not.toMatch(CODE);
    for (const detail of [null, {}, { automatic: true, to: true, current: true, failed: "timeout", via: "ADMIN_EMAIL" }]) {
      const sentence = auditSentence(action, { detail, target: "someone@example.test", targetName: "Ada" });
      expect(sentence.trim().length).toBeGreaterThan(3);
      expect(sentence).not.toContain(action);
      expect(sentence).not.toMatch(/undefined|null|NaN|\[object/);
    }
  });

  it("has words for exactly the actions the log records", () => {
    expect(Object.keys(AUDIT_WORDS).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(AUDIT_ACTIONS.map(auditLabel)).size, "two actions share a filter label").toBe(AUDIT_ACTIONS.length);
  });

  it("names the person and what changed", () => {
    expect(auditSentence("staff.role_changed", { detail: { from: "viewer", to: "admin" }, target: "ada@example.test", targetName: "Ada" })).toBe(
      "Changed Ada’s role from viewer to admin",
    );
    expect(auditSentence("request.created", { detail: { tag: "ada.obi", amount: "1500.00" }, target: "12", targetName: null })).toBe(
      "Sent a fund request for NGN 1,500.00 to @ada.obi",
    );
    expect(auditSentence("campaign.paused", { detail: { automatic: true, reason: "sender_disabled" }, target: "c", targetName: null })).toBe(
      "The campaign paused by itself: the person sending it was disabled",
    );
  });

  it("links each target to its page", () => {
    expect(auditTargetHref("request.created", "12")).toBe("/requests/12");
    expect(auditTargetHref("payment.reverify", "3f2a0000-0000-4000-8000-000000000000")).toBe("/payments/3f2a0000-0000-4000-8000-000000000000");
    expect(auditTargetHref("campaign.started", "c1")).toBe("/campaigns/c1");
    expect(auditTargetHref("staff.disabled", "ada@example.test")).toBe("/staff");
    expect(auditTargetHref("settings.require_2fa_changed", null)).toBe("/staff");
    expect(auditTargetHref("auth.sign_in", null)).toBeNull();
    expect(auditTargetText("request.created", "12", null)).toBe("Request #12");
    expect(auditTargetText("campaign.started", "c1", "December dues")).toBe("December dues");
    expect(auditTargetText("staff.disabled", "ada@example.test", null)).toBe("ada@example.test");
  });

  it("shows a code it does not know as it is", () => {
    expect(auditSentence("future.thing", { detail: null, target: null, targetName: null })).toBe("future.thing");
    expect(auditTargetHref("future.thing", "x")).toBeNull();
  });
});

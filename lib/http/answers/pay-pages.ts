import "server-only";

import type { PayPageView } from "@/lib/client/pay-pages/view";
import type { PayPageChangeOutcome, PayPageCreateOutcome } from "@/lib/pay-pages/manage";
import type { SubmitOutcome } from "@/lib/pay-pages/submit";

import { ApiError, conflict, invalidField, notFound, tooManyRequests, unprocessable } from "../api-error";

// Pay pages' outcomes as answers (docs/architecture.md "Error codes"): the dashboard's routes and the public door.

export const PAGE_MISSING = "No such pay page. Check the link, or find the page in its list.";

export function createdPayPage(outcome: PayPageCreateOutcome): PayPageView {
  if (outcome.kind === "slug_taken") throw invalidField("Another pay page has this address. Choose another.", "slug", "Taken by another page");
  if (outcome.kind === "bad_plan") throw invalidField(outcome.message, "planId", outcome.message);
  return outcome.page;
}

export function changedPayPage(outcome: PayPageChangeOutcome): PayPageView {
  if (outcome.kind === "not_found") throw notFound(PAGE_MISSING);
  if (outcome.kind === "bad_plan") throw invalidField(outcome.message, "planId", outcome.message);
  return outcome.page;
}

const CLOSED: Record<Extract<SubmitOutcome, { kind: "closed" }>["state"], string> = {
  off: "This page is not taking payments right now. Nothing was sent.",
  expired: "This page has closed. Nothing was sent.",
  full: "This page has taken all the payments it can. Nothing was sent.",
};

const CHALLENGE: Record<Extract<SubmitOutcome, { kind: "challenge_refused" }>["reason"], string> = {
  malformed: "The check that you are a person did not finish. Try again.",
  expired: "The check that you are a person ran out (5 minutes). Try again.",
  invalid: "The check that you are a person did not pass. Try again.",
  replayed: "This check was already used. Each try needs a fresh one: try again.",
};

/** "40 seconds", "10 minutes", "3 hours": a wait as a payer reads it. */
function inWords(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  if (seconds < 5_400) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3_600)} hours`;
}

/** The public submission's answer: the status link, or why nothing was sent (never anything about the tag). */
export function submittedPayPage(outcome: SubmitOutcome, slug: string): { statusUrl: string } {
  switch (outcome.kind) {
    case "accepted":
      return { statusUrl: `/pay/${slug}/s/${outcome.token}` };
    case "not_found":
      throw notFound(PAGE_MISSING);
    case "closed":
      throw conflict(CLOSED[outcome.state], { state: outcome.state });
    case "invalid":
      throw unprocessable("Check the highlighted fields.", {
        formErrors: [],
        fieldErrors: Object.fromEntries(Object.entries(outcome.fields).map(([k, v]) => [k, [v]])),
      });
    case "challenge_refused":
      throw invalidField(CHALLENGE[outcome.reason], "altcha", CHALLENGE[outcome.reason]);
    case "address_limited":
      throw tooManyRequests(`Too many tries from this connection. Try again in ${inWords(outcome.retryAfterSeconds)}.`, outcome.retryAfterSeconds * 1000);
    case "page_daily_limit":
      throw new ApiError(429, "This page has taken all it can for today. Try again tomorrow.", { retryAfterMs: 3_600_000 });
  }
}

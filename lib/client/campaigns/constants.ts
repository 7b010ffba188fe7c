// Zod-free: the ask-again form draws its choices from this without loading zod with the page.

/** The states of a campaign's rows that "Ask again" may chase (docs/architecture.md "Payers and chasing"). */
export const ASK_AGAIN_STATES = ["declined", "failed", "unanswered"] as const;
export type AskAgainState = (typeof ASK_AGAIN_STATES)[number];

// Solves the pay page's ALTCHA challenge off the main thread, so the form stays responsive (docs/architecture.md "Pay pages").
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/sha";

import type { PowAnswer, PowRequest } from "./pow";

// The project's TypeScript knows the DOM, not a worker's scope: this is all of the worker scope used here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PowRequest>) => void) | null;
  postMessage(answer: PowAnswer): void;
};

scope.onmessage = (event) => {
  solveChallenge({ challenge: event.data.challenge, deriveKey, timeout: 60_000 })
    .then((solution) => scope.postMessage(solution ? { solution } : { error: "The check took too long" }))
    .catch((error: unknown) => scope.postMessage({ error: error instanceof Error ? error.message : "The check failed" }));
};

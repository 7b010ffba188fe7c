// A payer's browser's part of the pay pages' proof of work (docs/architecture.md "Pay pages"): solve an ALTCHA v2
// challenge and make the form's `altcha` value. altcha-lib only (relative imports elsewhere): the unit suites, the
// hardening walk and e2e share it.
import { solveChallenge, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

/** The form's `altcha` value for a challenge and its solution: base64 of `{ challenge, solution }`. */
export function altchaOf(challenge: Challenge, solution: Solution): string {
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** Solves `challenge` (5,000–20,000 SHA-256 rounds) and answers the form's `altcha` value. */
export async function solvedChallenge(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  if (!solution) throw new Error("the pay challenge was not solved within 30 s");
  return altchaOf(challenge, solution);
}

/** A challenge fetched from the app at `baseUrl` (GET /api/public/pay/challenge), solved. */
export async function fetchSolvedAltcha(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/public/pay/challenge`);
  if (res.status !== 200) throw new Error(`GET /api/public/pay/challenge: HTTP ${res.status}`);
  return solvedChallenge(((await res.json()) as { data: Challenge }).data);
}

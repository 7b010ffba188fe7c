// The pay form's proof-of-work (ALTCHA v2): fetch a challenge, solve it off the main thread, encode what the server
// checks (docs/architecture.md "Pay pages"). altcha-lib itself loads only in the worker, never with the page.
import type { Challenge, Solution } from "altcha-lib";

/** To the worker: the challenge to solve. */
export interface PowRequest {
  challenge: Challenge;
}

/** From the worker: the solution, or why there is none (timed out, bad challenge). */
export type PowAnswer = { solution: Solution } | { error: string };

/** A solved challenge, ready to send as the body's `altcha`, and when the server stops taking it (ms; null: never). */
export interface SolvedCheck {
  altcha: string;
  expiresAt: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Enough of a challenge to try solving it; the server checks the rest (its signature, expiry). */
function isChallenge(value: unknown): value is Challenge {
  if (!isRecord(value) || !isRecord(value.parameters)) return false;
  const p = value.parameters;
  return typeof p.algorithm === "string" && typeof p.nonce === "string" && typeof p.salt === "string" && typeof p.keyPrefix === "string";
}

/** GET /api/public/pay/challenge: a fresh challenge, good for one submission. */
export async function fetchChallenge(): Promise<Challenge> {
  const response = await fetch("/api/public/pay/challenge", { headers: { Accept: "application/json" }, cache: "no-store" });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !isRecord(body) || body.status !== true || !isChallenge(body.data)) throw new Error("No challenge came back");
  return body.data;
}

/** Solves `challenge` in a Web Worker (same origin: the CSP's worker-src 'self'); rejects when the worker cannot. */
export function solveInWorker(challenge: Challenge): Promise<Solution> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./pow.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<PowAnswer>) => {
      worker.terminate();
      if ("solution" in event.data) resolve(event.data.solution);
      else reject(new Error(event.data.error));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error("The check could not run in this browser"));
    };
    worker.postMessage({ challenge } satisfies PowRequest);
  });
}

/** Base64 of the UTF-8 JSON `{ challenge, solution }`: the POST body's `altcha`. */
export function encodeCheck(challenge: Challenge, solution: Solution): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ challenge, solution }));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Fetches, solves and encodes a challenge: what the form runs once per submission. */
export async function solveCheck(): Promise<SolvedCheck> {
  const challenge = await fetchChallenge();
  const solution = await solveInWorker(challenge);
  // ALTCHA's expiresAt is in seconds.
  const expiresAt = challenge.parameters.expiresAt;
  return { altcha: encodeCheck(challenge, solution), expiresAt: typeof expiresAt === "number" ? expiresAt * 1000 : null };
}

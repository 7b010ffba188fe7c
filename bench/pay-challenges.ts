// Solved pay-page challenges for the benchmarks (18, and page weight's sample status link): fetched from the
// dashboard, solved in worker threads as a payer's browser would, ready to send as `altcha`.
import { Worker } from "node:worker_threads";

/** `count` solved challenges from `baseUrl`, `threads` solving at once. */
export async function solvedChallenges(baseUrl: string, count: number, threads = 2): Promise<string[]> {
  const workers = Array.from({ length: threads }, () => new Worker(new URL("./pay-solver.worker.mjs", import.meta.url)));
  const out: string[] = [];
  let next = 0;
  try {
    await Promise.all(
      workers.map(async (worker) => {
        let answer: ((altcha: string) => void) | null = null;
        let failure: ((error: Error) => void) | null = null;
        worker.on("message", (altcha: string) => answer?.(altcha));
        worker.on("error", (error: Error) => failure?.(error));
        while (next < count) {
          next += 1;
          const res = await fetch(`${baseUrl}/api/public/pay/challenge`);
          if (res.status !== 200) throw new Error(`challenge: HTTP ${res.status}`);
          const challenge = ((await res.json()) as { data: unknown }).data;
          out.push(
            await new Promise<string>((resolve, reject) => {
              answer = resolve;
              failure = reject;
              worker.postMessage(challenge);
            }),
          );
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out;
}

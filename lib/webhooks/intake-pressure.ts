import { sleep } from "@/lib/util/sleep";
import { processSingleton } from "@/lib/util/process-singleton";

// The webhook's acknowledgement comes before follow-up work (docs/architecture.md, "A webhook delivery"): while
// deliveries are arriving, this process's follow-up worker and the events' consumers wait for a lull, each up to a cap
// so it is never starved.

type State = { inFlight: number; lastAt: number };

function state(): State {
  return processSingleton<State>("intake-pressure", () => ({ inFlight: 0, lastAt: 0 }));
}

/** Marks a delivery in progress; call the answer when it is answered. */
export function deliveryStarted(now = Date.now()): () => void {
  const s = state();
  s.inFlight += 1;
  s.lastAt = now;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    s.inFlight -= 1;
    s.lastAt = Date.now();
  };
}

/** True when no delivery is in progress and none ended within `quietMs`. */
export function intakeQuiet(quietMs: number, now = Date.now()): boolean {
  const s = state();
  return s.inFlight === 0 && now - s.lastAt >= quietMs;
}

/** Waits until the intake is quiet, or `maxWaitMs` has passed; answers how long it waited. */
export async function waitForQuietIntake(maxWaitMs: number, quietMs = 50, stepMs = 25): Promise<number> {
  const started = Date.now();
  while (!intakeQuiet(quietMs) && Date.now() - started < maxWaitMs) await sleep(stepMs);
  return Date.now() - started;
}

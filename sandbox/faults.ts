// Injected failures, so the app's timeouts, retries and error handling can be exercised on demand.
import type { ServerResponse } from "node:http";
import { fail, HttpError, isRecord, send } from "./http-util";

export const FAULT_MODES = ["500", "429", "timeout", "malformed", "slow"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  path: string;
  mode: FaultMode;
  /** Requests still to be hit; null until cleared. */
  remaining: number | null;
}

export class FaultTable {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push(fault);
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The mode of the first fault whose prefix matches, spending one of its count. */
  take(path: string): FaultMode | null {
    const fault = this.faults.find((f) => path.startsWith(f.path));
    if (!fault) return null;
    if (fault.remaining !== null) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault.mode;
  }
}

export function parseFault(body: unknown): Fault {
  if (!isRecord(body)) throw new HttpError(400, "Request body must be a JSON object");
  const { path, mode, count } = body;
  if (typeof path !== "string" || !path.startsWith("/")) throw new HttpError(400, 'path must be a string starting with "/"');
  if (!FAULT_MODES.some((m) => m === mode)) throw new HttpError(400, `mode must be one of ${FAULT_MODES.join(", ")}`);
  if (count !== undefined && !(typeof count === "number" && Number.isInteger(count) && count >= 1)) {
    throw new HttpError(400, "count must be a whole number of at least 1 (omit it to fault until cleared)");
  }
  return { path, mode: mode as FaultMode, remaining: count ?? null };
}

// Cut mid-way so clients must cope with a 200 whose JSON does not parse.
const MALFORMED_BODY = '{"status":true,"message":"OK","data":{"request_';

/** Acts out a fault; resolves true if the request is finished with (answered or deliberately held). */
export async function actOutFault(mode: FaultMode, res: ServerResponse, delay: (ms: number) => Promise<void>, slowDelayMs: number): Promise<boolean> {
  switch (mode) {
    case "500":
      send(res, fail(500, "Internal server error (sandbox fault)"));
      return true;
    case "429":
      send(res, fail(429, "Too many requests (sandbox fault)", { "retry-after": "1" }));
      return true;
    case "malformed":
      send(res, { status: 200, body: MALFORMED_BODY, contentType: "application/json" });
      return true;
    case "timeout":
      return true;
    case "slow":
      await delay(slowDelayMs);
      return false;
  }
}

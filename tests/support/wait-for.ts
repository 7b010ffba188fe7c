// Waiting in tests: a bounded poll for a condition (never a fixed sleep where a condition will do).

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` every `everyMs` until it returns something other than undefined, and returns that.
 * An error thrown by the probe counts as "not yet"; after `timeoutMs` it fails naming `what` (and the
 * probe's last error, if any).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 5000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError === undefined ? "" : ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(everyMs);
  }
}

/** Resolves after `ms` milliseconds: the one wait-a-while helper for lib/. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

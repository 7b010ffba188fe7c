// Every delayed job goes through here so close() can cancel them all and let the process exit.
export class TimerSet {
  private readonly pending = new Set<NodeJS.Timeout>();
  private stopped = false;

  later(ms: number, job: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      job();
    }, ms);
    this.pending.add(timer);
  }

  /** Resolves after ms; never resolves if the sandbox closes first. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }

  get closed(): boolean {
    return this.stopped;
  }

  clearAll(): void {
    this.stopped = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}

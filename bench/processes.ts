// Child processes the bench starts: each in its own process group, so stopping one stops what it spawned.
import { spawn, type ChildProcess } from "node:child_process";

export interface Managed {
  name: string;
  child: ChildProcess;
  /** The last lines it printed, for the error message when something goes wrong. */
  tail(): string;
  readonly exited: boolean;
  stop(): Promise<void>;
}

const running = new Set<Managed>();
const TAIL_LINES = 60;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

// Last resort if the bench itself dies: nothing it started may outlive it.
process.on("exit", () => {
  for (const m of running) killGroup(m.child, "SIGKILL");
});

export function launch(name: string, command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Managed {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      running.delete(managed);
      resolve();
    });
    child.once("error", (error) => {
      lines.push(`could not start: ${error.message}`);
      exited = true;
      running.delete(managed);
      resolve();
    });
  });
  const managed: Managed = {
    name,
    child,
    tail: () => lines.join("\n"),
    get exited() {
      return exited;
    },
    async stop() {
      if (exited) return;
      killGroup(child, "SIGTERM");
      const force = setTimeout(() => killGroup(child, "SIGKILL"), 10_000);
      await exit;
      clearTimeout(force);
      // Whatever it spawned in its group goes too.
      killGroup(child, "SIGKILL");
    },
  };
  running.add(managed);
  return managed;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((m) => m.stop()));
}

/** Polls `url` until it answers 200; fails early if the process died. */
export async function waitForHttp(url: string, proc: Managed, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited) throw new Error(`${proc.name} exited before it was ready:\n${proc.tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${proc.tail()}`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

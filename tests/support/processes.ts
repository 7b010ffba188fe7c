// Child processes a test or benchmark starts: each in its own process group (so stopping it stops what
// it spawned), with its output captured for the error message when something goes wrong.
import { spawn, type ChildProcess } from "node:child_process";
import { tmpdir } from "node:os";

import { sleep } from "./wait-for";

export interface ExitStatus {
  /** Null when it ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Managed {
  /** For messages, e.g. "dashboard :3201". */
  name: string;
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far (stdout and stderr interleaved; the last 200,000 characters). */
  output(): string;
  /** Its last non-blank output lines (default 60). */
  tail(lines?: number): string;
  readonly exited: boolean;
  /** Resolves once it ended. */
  exit: Promise<ExitStatus>;
  /** Resolves true once its output contains `match`, false if it ends first. */
  untilOutput(match: string | RegExp): Promise<boolean>;
  /** Sends a signal to its whole process group (as a terminal's Ctrl-C does), without waiting. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (or the given signal) to its process group, SIGKILL after 10 s; resolves once it ended. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const OUTPUT_CHARS = 200_000;
const running = new Set<Managed>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

// Last resort if the test file or the bench dies: nothing it started may outlive it.
process.on("exit", () => {
  for (const m of running) killGroup(m.pid, "SIGKILL");
});

/** The names of the processes started here that have not ended yet. */
export function stillRunning(): string[] {
  return [...running].filter((m) => !m.exited).map((m) => m.name);
}

/** Starts `command` in its own process group with exactly `env`, capturing its output. */
export function launch(name: string, command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Managed {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  if (child.pid === undefined) {
    child.once("error", () => {});
    throw new Error(`could not start ${name} (${command})`);
  }
  const pid = child.pid;
  let text = "";
  const watchers = new Set<() => void>();
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString("utf8")).slice(-OUTPUT_CHARS);
    for (const watch of watchers) watch();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<ExitStatus>((resolve) => {
    const ended = (status: ExitStatus) => {
      if (exited) return;
      exited = true;
      running.delete(managed);
      for (const watch of watchers) watch();
      resolve(status);
    };
    child.once("exit", (code, signal) => ended({ code, signal }));
    child.once("error", (error) => {
      text += `\ncould not start: ${error.message}`;
      ended({ code: null, signal: null });
    });
  });
  const managed: Managed = {
    name,
    child,
    pid,
    output: () => text,
    tail: (lines = 60) =>
      text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .slice(-lines)
        .join("\n"),
    get exited() {
      return exited;
    },
    exit,
    untilOutput(match) {
      const found = () => (typeof match === "string" ? text.includes(match) : match.test(text));
      return new Promise((resolve) => {
        const watch = () => {
          if (found()) resolve(true);
          else if (exited) resolve(false);
          else return;
          watchers.delete(watch);
        };
        watchers.add(watch);
        watch();
      });
    },
    signal: (signal) => killGroup(pid, signal),
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (!exited) {
        killGroup(pid, signal);
        const force = setTimeout(() => killGroup(pid, "SIGKILL"), 10_000);
        await exit;
        clearTimeout(force);
      }
      // Whatever it spawned in its group goes too.
      killGroup(pid, "SIGKILL");
    },
  };
  running.add(managed);
  return managed;
}

/** Stops everything launched that is still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((m) => m.stop()));
}

/**
 * Polls `url` until it answers 2xx (each try bounded by `requestTimeoutMs`); fails at once if the
 * process ended, and after `timeoutMs` otherwise, with the end of its output.
 */
export async function waitForHttp(url: string, proc: Managed, timeoutMs: number, opts: { everyMs?: number; requestTimeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited) throw new Error(`${proc.name} exited before it was ready:\n${proc.tail()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(opts.requestTimeoutMs ?? 2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(opts.everyMs ?? 200);
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${proc.tail()}`);
}

/** A minimal production environment: nothing from the developer's shell (a stray DATABASE_URL, say) leaks in. */
export function bareEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extra,
  };
}

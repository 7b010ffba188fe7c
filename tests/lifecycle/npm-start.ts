// Runs `npm start` as a person would, in its own process group, with a bare environment.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface NpmStart {
  output(): string;
  /** Resolves when the ready line is printed, or when the process ends first. */
  ready: Promise<void>;
  /** Resolves with the signal or "code N" it ended with. */
  exited: Promise<string>;
  /** Ctrl-C to the whole process group, as a terminal sends it. */
  interrupt(): void;
  kill(): void;
}

export function npmStart(env: Record<string, string>): NpmStart {
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    // Only what a machine with Node.js has, plus what the test sets.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? `code ${code}`)));
  const ready = new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes("Press Ctrl-C to stop.")) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => resolve());
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid ?? 0), signal);
    } catch {
      // Already gone.
    }
  };
  return { output: () => out, ready, exited, interrupt: () => signalGroup("SIGINT"), kill: () => signalGroup("SIGKILL") };
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

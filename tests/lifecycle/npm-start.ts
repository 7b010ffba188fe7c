// Runs `npm start` as a person would, in its own process group, with a bare environment.
import { ROOT } from "@/tests/support/paths";
import { launch } from "@/tests/support/processes";

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
  // Only what a machine with Node.js has, plus what the test sets.
  const run = launch("npm start", "npm", ["start"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", ...env },
  });
  return {
    output: run.output,
    ready: run.untilOutput("Press Ctrl-C to stop.").then(() => undefined),
    exited: run.exit.then(({ code, signal }) => signal ?? `code ${code}`),
    interrupt: () => run.signal("SIGINT"),
    kill: () => run.signal("SIGKILL"),
  };
}

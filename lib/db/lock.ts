import "server-only";

import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

// PGlite takes no lock of its own; two processes on one data folder would corrupt it.
export const LOCK_FILE = "fundboard.lock";

export class DatabaseLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another Fundboard process (pid ${holderPid}). ` +
        `Stop that process first (Ctrl-C in the terminal running \`npm start\`), or run this command with DATABASE_URL pointing at a Postgres server.`,
    );
    this.name = "DatabaseLockedError";
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Locks this process holds: a lock naming our own pid that is not here is stale (a restarted container reuses pids).
const heldHere = new Set<string>();

export interface DataDirLock {
  file: string;
  release(): void;
}

/** Takes the data folder's lock file for this process, clearing a stale one left by a killed process. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
      closeSync(fd);
      heldHere.add(file);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(file);
        try {
          if (readHolder(file) === process.pid) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
      process.once("exit", release);
      return { file, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(file);
      if (holder === process.pid && heldHere.has(file)) throw new DatabaseLockedError(dataDir, holder);
      if (holder !== null && holder !== process.pid && pidAlive(holder)) throw new DatabaseLockedError(dataDir, holder);
      try {
        unlinkSync(file);
      } catch {
        // Raced with another cleaner; try again.
      }
    }
  }
  throw new Error(`Could not take the database lock ${file}; remove it if no Fundboard process is running.`);
}

function readHolder(file: string): number | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { pid?: unknown };
    return typeof parsed.pid === "number" ? parsed.pid : null;
  } catch {
    return null;
  }
}

// A lock file per build folder, held while a bench run builds and serves from it, so a second run
// (a smoke run from `npm test`, say) waits instead of rebuilding under a running server.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";

import { sleep } from "@/tests/support/wait-for";

function holder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquireLock(file: string, timeoutMs: number, log: (line: string) => void): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (holder(file) === process.pid) unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = holder(file);
    if (pid === null || !alive(pid)) {
      try {
        unlinkSync(file);
      } catch {
        // Someone else cleared it.
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${file} is held by bench process ${pid} for over ${timeoutMs / 1000} s`);
    if (!told) log(`waiting for bench process ${pid} to finish with ${file}…`);
    told = true;
    await sleep(1_000);
  }
}

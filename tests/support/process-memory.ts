// Resident memory of a server under test and its child processes, read from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

function vmRssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // gone meanwhile
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the name (field 2) may hold spaces, so read after its ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** VmRSS in bytes of `pid` plus every process below it. */
export function treeRssBytes(pid: number): number {
  let kb = 0;
  const todo = [pid];
  while (todo.length > 0) {
    const next = todo.pop() as number;
    kb += vmRssKb(next);
    todo.push(...childrenOf(next));
  }
  return kb * 1024;
}

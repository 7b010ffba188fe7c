// The machine the figures came from.
import os from "node:os";

export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  totalMemoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started: other work on the machine skews the figures. */
  loadAverageAtStart: number;
  date: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cpuCount: cpus.length,
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    date: new Date().toISOString(),
  };
}

export function describeMachine(m: MachineInfo): string {
  return `${m.cpuCount} × ${m.cpuModel}, ${m.totalMemoryGiB} GiB RAM, ${m.os}, Node ${m.node}; load average ${m.loadAverageAtStart} at the start`;
}

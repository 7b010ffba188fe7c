// How every server of ours runs `next start`: with the peer-address stamp preloaded (TRUST_PROXY).
import path from "node:path";

/** The command and arguments for `next start -p port [-H host]` in `root`, for spawn(). */
export function nextStartCommand(root: string, port: number, host?: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [
      "--require",
      path.join(root, "scripts", "request-preload.cjs"),
      path.join(root, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      ...(host ? ["-H", host] : []),
    ],
  };
}

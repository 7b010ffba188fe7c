import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { DEMO_ADMIN } from "@/lib/auth/demo";
import { DEV_API_KEY } from "@/lib/config/dev-key";
import { freePortRun, isListening, untilClosed } from "@/tests/support/ports";

import { npmStart } from "./npm-start";

const PORT = await freePortRun();
const SANDBOX_PORT = await freePortRun(3);

/** This machine's first address other than loopback: where a LAN neighbour would knock. */
function lanAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal);
  if (!found) throw new Error("this machine has no non-loopback IPv4 address, so the binding cannot be checked");
  return found.address;
}

describe("npm start", () => {
  it("starts the sandbox and the dashboard, prints the URLs, the key and the demo sign-in, listens on loopback only, and Ctrl-C stops both", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fundboard-start-"));
    // No service configured: sandbox mode.
    const run = npmStart({ PORT: String(PORT), SANDBOX_PORT: String(SANDBOX_PORT), DATA_DIR: dataDir });
    try {
      await run.ready;
      const out = run.output();
      expect(out, out.slice(-2000)).toContain(`Fundboard is ready: http://localhost:${PORT}`);
      expect(out).toContain(`http://127.0.0.1:${SANDBOX_PORT}`);
      expect(out).toContain(`API key in use:   ${DEV_API_KEY}`);
      expect(out).toContain(`${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
      expect(await isListening(PORT)).toBe(true);
      expect(await isListening(SANDBOX_PORT)).toBe(true);
      // The demo password is printed above: in sandbox mode nothing but this machine may reach the dashboard.
      expect(await isListening(PORT, lanAddress())).toBe(false);
      expect(await isListening(SANDBOX_PORT, lanAddress())).toBe(false);

      run.interrupt();
      // npm itself ends by the signal (as in a terminal); what matters is that nothing is left running.
      expect(["code 0", "SIGINT"]).toContain(await run.exited);
      await untilClosed(PORT);
      await untilClosed(SANDBOX_PORT);
    } finally {
      run.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

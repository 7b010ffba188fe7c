import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function start(env: Record<string, string>) {
  return spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", "scripts/start.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "test", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
}

describe("npm start with a bad environment", () => {
  it.each([
    [{ PORT: "not-a-port" }, "PORT"],
    [{ SERVICE_BASE_URL: "https://api.example.test" }, "SERVICE_API_KEY"],
    [{ SERVICE_AMOUNT_UNIT: "cents" }, "SERVICE_AMOUNT_UNIT"],
  ])("stops before starting anything and names the variable (%j)", (env, name) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(name);
    expect(result.stderr).toContain("cannot start");
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(result.stdout).not.toContain("Building");
  });
});

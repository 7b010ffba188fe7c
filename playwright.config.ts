import { defineConfig, devices } from "@playwright/test";

import { freePortRun } from "./tests/support/ports";

// Free ports, chosen once by the runner (E2E_PORT / E2E_SANDBOX_PORT win when set) and inherited by its workers,
// which load this file again and find them set. e2e/support.ts reads them, so it is imported after.
process.env.E2E_PORT ??= String(await freePortRun(1, "e2e"));
process.env.E2E_SANDBOX_PORT ??= String(await freePortRun(3, "e2e"));
const { ADMIN_STATE, E2E_PORT, E2E_RUN, E2E_SANDBOX_PORT } = await import("./e2e/support");
// On Postgres (`npm run test:e2e:postgres`) the flows whose path differs by engine run again: the live bus (LISTEN/NOTIFY
// there, in-process on PGlite) and the job engine on its own pool (follow-ups, campaign and plan sends, the exceptions
// scan). Accounts, roles, sign-in and the page tours read and write the same way on both, and every query is already
// run on both engines by the database tests (docs/decisions.md, "CI time").
const ENGINE_FLOWS = /(consumer-flow|webhook|campaigns|payers|plans|exceptions)\.spec\.ts$/;
const POSTGRES = E2E_RUN === "e2e-postgres";

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  // In CI a failed test runs once more and, passing, is reported as flaky (.ci/run lists it): CI's machine has twice
  // stalled both lanes at once, each losing one test to its time limit (docs/decisions.md, "CI time"). Never here.
  retries: process.env.CI ? 1 : 0,
  // Generous: CI runs this suite beside another (.ci/run's two lanes), where a step can take twice its time alone.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: `test-results/${E2E_RUN}`,
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    // A trace records every action (snapshots and screencast) to keep only a failure's; CI's clone is thrown away
    // with it, so there it is work nobody reads (docs/decisions.md, "CI time"). Run locally, a failure keeps one.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts$/, use: { ...devices["Desktop Chrome"] } },
    {
      name: "chromium",
      testMatch: POSTGRES ? ENGINE_FLOWS : /\.spec\.ts$/,
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], storageState: ADMIN_STATE },
    },
  ],
  webServer: {
    // A fresh embedded database each run; `npm start` reuses the build `npm test` just made.
    command: "node_modules/.bin/tsx scripts/e2e-server.ts",
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      SANDBOX_PORT: String(E2E_SANDBOX_PORT),
      DATA_DIR: `./data/${E2E_RUN}`,
      APP_URL: `http://localhost:${E2E_PORT}`,
      // The tests play the one proxy in front: each sets X-Forwarded-For to its own fake address so
      // sign-in throttling of one test never locks another (tests/hardening covers TRUST_PROXY=0).
      TRUST_PROXY: "1",
      // A lost payment notice is an exception a minute after the acceptance, not 15: the month-end walk settles one.
      LOST_WEBHOOK_MINUTES: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});

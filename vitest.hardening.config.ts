import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The hardening suite (issue 7): real `next start` servers of one build made by the global setup.
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./tests/stubs/empty.ts", import.meta.url)),
    },
  },
  test: {
    include: ["tests/hardening/**/*.hardening.ts", "tests/scaleout/**/*.hardening.ts", "tests/lifecycle/**/*.hardening.ts"],
    exclude: ["node_modules/**", ".next/**", ".next-*/**", "data/**"],
    environment: "node",
    globalSetup: ["tests/hardening/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Two files at a time by default: most of a file's time is waiting (budget windows, restarts, timeouts), and each
    // file has its own servers, ports, data folders and Postgres databases, so two never touch each other's state.
    // CI runs one at a time (HARDENING_WORKERS=1), beside the end-to-end lane (docs/decisions.md, "CI time").
    fileParallelism: true,
    maxWorkers: Number(process.env.HARDENING_WORKERS ?? "2"),
    pool: "forks",
  },
});

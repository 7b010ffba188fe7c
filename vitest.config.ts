import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      "server-only": fileURLToPath(new URL("./tests/stubs/empty.ts", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", ".next-*/**", "e2e/**", "data/**"],
    environment: "node",
    // Migrated template databases, copied for each test database instead of migrating each from nothing.
    globalSetup: ["tests/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Both cores: each file has its own databases (a PGlite folder, a Postgres database), and vitest's default on
    // two cores is one worker (measured here: 408 s one at a time, 268 s two at a time).
    maxWorkers: 2,
    // Shuffled, so no test leans on another having run first (docs/decisions.md, "Tests in shuffled order"): the seed
    // is fixed so a failure reproduces; VITEST_SEED=<n> tries another order.
    sequence: { shuffle: true, seed: Number(process.env.VITEST_SEED) || 7 },
  },
});

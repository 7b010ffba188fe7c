// Lints the API's OpenAPI document as it is served (generated from the code) with Redocly's recommended rules:
// part of `npm run lint`, so CI fails on a document that is not valid OpenAPI 3.1 (docs/architecture.md "The API").
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { openApiJson } from "@/lib/api/v1/document";

const dir = mkdtempSync(path.join(tmpdir(), "fundboard-openapi-"));
const file = path.join(dir, "openapi.json");
try {
  writeFileSync(file, openApiJson());
  const bin = path.resolve("node_modules/.bin/redocly");
  const run = spawnSync(bin, ["lint", file, "--format=stylish", "--max-problems=50"], {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

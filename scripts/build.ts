// `npm run build`: always builds, and records the source hash so `npm start` can skip rebuilding.
import path from "node:path";

import { buildIfNeeded } from "./build-if-needed";

try {
  buildIfNeeded(path.resolve(import.meta.dirname, ".."), (line) => console.log(`[fundboard] ${line}`), { force: true });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

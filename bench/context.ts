// What every benchmark gets from the runner.
import type { BenchOptions } from "./options";

export interface BenchContext {
  options: BenchOptions;
  /** The dashboard build folder (NEXT_DIST_DIR). */
  distDir: string;
  apiKey: string;
  sandbox: { apiUrl: string; port: number };
  /** A fresh temporary folder for this run's DATA_DIRs. */
  tempRoot: string;
  log(line: string): void;
}

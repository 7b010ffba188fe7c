// The run's output: a table on stdout, the JSON file, and (full runs) the figures in bench/README.md.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import * as prettier from "prettier";

import { describeMachine, type MachineInfo } from "./machine";
import type { BenchOptions } from "./options";
import type { BenchResults, TargetLine } from "./targets";

export interface Report {
  kind: "full" | "smoke";
  machine: MachineInfo;
  sizes: Pick<
    BenchOptions,
    | "intake"
    | "amplification"
    | "live"
    | "followUp"
    | "scaleOut"
    | "pageTime"
    | "campaigns"
    | "lag"
    | "payers"
    | "plans"
    | "dayBook"
    | "exceptions"
    | "exports"
    | "notifications"
    | "outbound"
    | "api"
    | "payPages"
  >;
  durationSeconds: number;
  results: BenchResults;
  targets: TargetLine[];
  /** Measurements that could not be taken; any makes the run fail. */
  errors: string[];
}

const MARK = { met: "met", missed: "MISSED", info: "" } as const;

export function printTable(lines: readonly TargetLine[]): void {
  const rows = [["benchmark", "measurement", "value", "target", ""], ...lines.map((l) => [l.bench, l.metric, l.value, l.target, MARK[l.verdict]])];
  const widths = [0, 1, 2, 3, 4].map((c) => Math.min(c === 2 ? 90 : 70, Math.max(...rows.map((r) => (r[c] ?? "").length))));
  const format = (r: string[]) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join("  ")
      .trimEnd();
  console.log(`\n${format(rows[0] ?? [])}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of rows.slice(1)) console.log(format(r));
}

export function writeJson(file: string, report: Report): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}

const BEGIN = "<!-- bench:begin (written by `npm run bench`) -->";
const END = "<!-- bench:end -->";
const cell = (text: string) => text.replace(/\|/g, "\\|");

export function readmeFigures(report: Report): string {
  const rows = report.targets.map(
    (l) => `| ${cell(l.bench)} | ${cell(l.metric)} | ${cell(l.value)} | ${cell(l.target)} | ${l.verdict === "info" ? "" : l.verdict} |`,
  );
  return [
    BEGIN,
    `Latest full run: ${report.machine.date.slice(0, 16).replace("T", " ")} UTC, ${Math.round(report.durationSeconds / 60)} min, on ${describeMachine(report.machine)}.`,
    "",
    "| benchmark | measurement | value | target | |",
    "|---|---|---|---|---|",
    ...rows,
    ...(report.errors.length ? ["", `Not measured: ${report.errors.map(cell).join("; ")}`] : []),
    END,
  ].join("\n");
}

/** Replaces the figures between the markers in bench/README.md; the text around them stays. */
export async function updateReadme(root: string, report: Report): Promise<boolean> {
  const file = path.join(root, "bench", "README.md");
  const text = readFileSync(file, "utf8");
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) return false;
  const next = text.slice(0, begin) + readmeFigures(report) + text.slice(end + END.length);
  // Formatted as `npm run lint` checks it (the table's column widths), with the project's Prettier settings.
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
  return true;
}

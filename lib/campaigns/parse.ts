import Papa from "papaparse";

import { MAX_CAMPAIGN_BYTES } from "@/lib/client/campaigns/schemas";
import { businessReferenceSchema, descriptionSchema, nairaAmountSchema, tagSchema } from "@/lib/client/requests/schemas";

// A campaign file (docs/architecture.md, "Campaigns"): UTF-8 with or without BOM, comma or semicolon,
// a header naming tag, amount and description in any order and case, an optional `reference` (the business's own),
// extra columns ignored.

export const MAX_CAMPAIGN_ROWS = 10_000;
export const REQUIRED_COLUMNS = ["tag", "amount", "description"] as const;

export interface ParsedRow {
  /** 1-based data row (the header is not counted). */
  row: number;
  tag: string;
  amountText: string;
  description: string;
  /** The business's own reference from the `reference` column, as written (trimmed); null when none. */
  businessReference?: string | null;
  /** Set when the row passed the single-request form's schema. */
  valid: { tag: string; amount: string; description: string; businessReference?: string | null } | null;
  error: string | null;
}

export type ParseOutcome = { ok: true; rows: ParsedRow[] } | { ok: false; status: 413 | 415 | 422; message: string };

/** Checks one row with the same schemas as the single-request form. */
export function checkRow(row: number, tag: string, amountText: string, description: string, reference = ""): ParsedRow {
  const problems: string[] = [];
  const t = tagSchema.safeParse(tag);
  if (!t.success) problems.push(`tag: ${t.error.issues[0]?.message ?? "invalid"}`);
  const a = nairaAmountSchema.safeParse(amountText);
  if (!a.success) problems.push(`amount: ${a.error.issues[0]?.message ?? "invalid"}`);
  const d = descriptionSchema.safeParse(description);
  if (!d.success) problems.push(`description: ${d.error.issues[0]?.message ?? "invalid"}`);
  const r = businessReferenceSchema.safeParse(reference);
  if (!r.success) problems.push(`reference: ${r.error.issues[0]?.message ?? "invalid"}`);
  const valid =
    t.success && a.success && d.success && r.success ? { tag: t.data, amount: a.data, description: d.data, businessReference: r.data ?? null } : null;
  return {
    row,
    tag: tag.trim(),
    amountText: amountText.trim(),
    description: description.trim(),
    businessReference: reference.trim() || null,
    valid,
    error: problems.length > 0 ? problems.join("; ") : null,
  };
}

export interface ParseOptions {
  /**
   * A plan's roster (lib/plans/repo.ts): the description column may be left out; each row is checked with the
   * description `describe` makes of its own (maybe empty) one, and keeps its own.
   */
  describe?: (own: string) => string;
}

/** Parses and checks a whole file; refuses (with which problem) a file that is not a campaign CSV. */
export function parseCampaignCsv(bytes: Uint8Array, options: ParseOptions = {}): ParseOutcome {
  if (bytes.byteLength > MAX_CAMPAIGN_BYTES)
    return { ok: false, status: 413, message: `The file is larger than 2 MiB (${bytes.byteLength} bytes). Split it into smaller files.` };
  if (bytes.byteLength === 0) return { ok: false, status: 422, message: "The file is empty. Upload a CSV with a header row: tag, amount, description." };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, status: 415, message: "The file is not UTF-8 text, so it is not a CSV we can read. Save it as CSV (UTF-8) and upload it again." };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) {
    return { ok: false, status: 415, message: "The file holds binary data, so it is not a CSV. Save it as CSV (UTF-8) and upload it again." };
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ";" : ",";
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: "greedy" });
  const fatal = parsed.errors.find((e) => e.code === "MissingQuotes" || e.code === "InvalidQuotes");
  if (fatal) return { ok: false, status: 422, message: `The file is not valid CSV: ${fatal.message} (row ${(fatal.row ?? 0) + 1}).` };
  const [header, ...data] = parsed.data;
  if (!header) return { ok: false, status: 422, message: "The file has no header row. The first line must name the columns: tag, amount, description." };
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c) && !(c === "description" && options.describe));
  if (missing.length > 0) {
    return {
      ok: false,
      status: 422,
      message: `The header row lacks the column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}. The first line must name ${options.describe ? "tag and amount, and may name description" : "tag, amount and description"} (any order).`,
    };
  }
  if (data.length === 0) return { ok: false, status: 422, message: "The file has a header but no rows to send." };
  if (data.length > MAX_CAMPAIGN_ROWS)
    return { ok: false, status: 413, message: `The file has ${data.length} rows; a campaign takes at most ${MAX_CAMPAIGN_ROWS}. Split it.` };
  const [tagAt, amountAt, descriptionAt] = REQUIRED_COLUMNS.map((c) => names.indexOf(c)) as [number, number, number];
  const referenceAt = names.indexOf("reference");
  const { describe } = options;
  const rows = data.map((cells, i) => {
    const own = cells[descriptionAt] ?? "";
    const reference = referenceAt >= 0 ? (cells[referenceAt] ?? "") : "";
    if (!describe) return checkRow(i + 1, cells[tagAt] ?? "", cells[amountAt] ?? "", own, reference);
    return { ...checkRow(i + 1, cells[tagAt] ?? "", cells[amountAt] ?? "", describe(own), reference), description: own.trim() };
  });
  return { ok: true, rows };
}

/** A row as POST /api/v1/campaigns takes it: a file's columns as JSON. */
export interface CampaignRowInput {
  tag: string;
  amount: string | number;
  description: string;
  businessReference?: string | null;
}

/**
 * Rows sent as JSON rather than in a file (POST /api/v1/campaigns), checked row by row exactly as a file's are
 * (`checkRow`), numbered from 1 in the order sent; the same limits as a file's (docs/architecture.md "Campaigns").
 */
export function checkCampaignRows(rows: readonly CampaignRowInput[]): ParseOutcome {
  if (rows.length === 0) return { ok: false, status: 422, message: "Send at least one row to ask." };
  if (rows.length > MAX_CAMPAIGN_ROWS)
    return { ok: false, status: 413, message: `That is ${rows.length} rows; a campaign takes at most ${MAX_CAMPAIGN_ROWS}. Split them.` };
  return {
    ok: true,
    rows: rows.map((r, i) => checkRow(i + 1, r.tag, typeof r.amount === "number" ? String(r.amount) : r.amount, r.description, r.businessReference ?? "")),
  };
}

/** Tags that appear more than once among the valid rows: each gets a warning, and stays sendable. */
export function repeatedTags(rows: readonly ParsedRow[]): Set<string> {
  const seen = new Map<string, number>();
  for (const r of rows) if (r.valid) seen.set(r.valid.tag.toLowerCase(), (seen.get(r.valid.tag.toLowerCase()) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([tag]) => tag));
}

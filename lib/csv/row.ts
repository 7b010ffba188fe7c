// One CSV writer for every download (payments, campaign results, later reports and exports): RFC 4180 rows,
// CRLF-terminated, with cells a spreadsheet would run as a formula defused.

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

// A plain number ("-15.00": a fee in an accounting export) is a value, not a formula: it stays as it is.
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** One RFC 4180 field: formula starts defused with a leading quote, then quoted when it needs to be. */
export function csvField(value: string | null | undefined): string {
  let text = value ?? "";
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

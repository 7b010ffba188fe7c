/**
 * One line for the server log about a failed operation: the error's class, code and message, never
 * its query parameters or detail (which carry e-mails, phones, names and password hashes).
 * Drizzle wraps driver errors as "Failed query: … params: …"; the driver's own error (its `cause`)
 * says what went wrong without the values.
 */
export function safeErrorSummary(error: unknown): string {
  let current: unknown = error;
  // Walk to the innermost cause: that is the database's own error, not the wrapper that quotes the query.
  for (let depth = 0; depth < 5; depth++) {
    const cause = current instanceof Error ? (current as Error & { cause?: unknown }).cause : undefined;
    if (cause === undefined || cause === null) break;
    current = cause;
  }
  if (!(current instanceof Error)) return typeof current === "string" ? firstLine(current) : "unknown error";
  const code = (current as Error & { code?: unknown }).code;
  const codePart = typeof code === "string" || typeof code === "number" ? ` [${code}]` : "";
  return `${current.name}${codePart}: ${firstLine(current.message)}`;
}

function firstLine(text: string): string {
  // A wrapper's message may still carry "params: …" on a later line; keep only the first, capped.
  const line = text.split("\n")[0] ?? "";
  return (/^Failed query:/i.test(line) ? "query failed" : line).slice(0, 300);
}

/**
 * LIKE/ILIKE patterns from user text. Postgres (and PGlite) treat backslash as the default escape
 * character, so `%`, `_` and `\` in the text are escaped to match themselves.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A pattern matching values that contain `text` anywhere, taken literally. */
export function likeContains(text: string): string {
  return `%${escapeLike(text)}%`;
}

// The bvn is personal data the dashboard never keeps: it is removed before anything is written.

const BVN_FIELD = /("bvn"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|null)/gi;
// Any run of 10+ digits in an unparseable body could be a bvn; keep only the last two.
const LONG_DIGITS = /\d{10,}/g;
export const MAX_LOGGED_BODY = 8 * 1024;

function scrubParsed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubParsed);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k.toLowerCase() === "bvn") continue;
      out[k] = scrubParsed(v);
    }
    return out;
  }
  return value;
}

/** The body as it may be logged: parsed and re-serialised without any `bvn` key, or text-scrubbed when unparseable. */
export function redactBody(raw: string): string {
  let text: string;
  try {
    text = JSON.stringify(scrubParsed(JSON.parse(raw)));
  } catch {
    text = raw.replace(BVN_FIELD, '$1"[removed]"').replace(LONG_DIGITS, (d) => `[${d.length - 2} digits]${d.slice(-2)}`);
  }
  return text.length > MAX_LOGGED_BODY ? `${text.slice(0, MAX_LOGGED_BODY)}… [truncated]` : text;
}

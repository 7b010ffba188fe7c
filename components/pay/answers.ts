// Reading the public pay routes' answers with plain fetch: the envelope, its field errors, a 429's wait (docs/architecture.md "Pay pages").

export interface Envelope {
  ok: boolean;
  message: string | null;
  code: string | null;
  data: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The answer's envelope; a body that is not one (a proxy's error page) reads as a failure with no message. */
export async function readEnvelope(response: Response): Promise<Envelope> {
  const body: unknown = await response.json().catch(() => null);
  if (!isRecord(body)) return { ok: false, message: null, code: null, data: {} };
  return {
    ok: response.ok && body.status === true,
    message: typeof body.message === "string" ? body.message : null,
    code: typeof body.code === "string" ? body.code : null,
    data: isRecord(body.data) ? body.data : {},
  };
}

/** The first reason for each field of a 400/422 (`data.fieldErrors`, or `data.fields`): "tag", "amount", "fields.0", "altcha". */
export function fieldErrorsOf(data: Record<string, unknown>): Record<string, string> {
  const source = isRecord(data.fieldErrors) ? data.fieldErrors : isRecord(data.fields) ? data.fields : {};
  const out: Record<string, string> = {};
  for (const [key, reasons] of Object.entries(source)) {
    const first = Array.isArray(reasons) ? reasons.find((r): r is string => typeof r === "string") : typeof reasons === "string" ? reasons : undefined;
    if (first) out[key] = first;
  }
  return out;
}

/** Seconds until a 429's Retry-After (seconds or an HTTP date); null without one. */
export function retryAfterSeconds(response: Response, now = Date.now()): number | null {
  const header = response.headers.get("Retry-After")?.trim();
  if (!header) return null;
  if (/^\d+$/.test(header)) return Number(header);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "in 40 seconds", "in a minute", "in 5 minutes", "in 2 hours"; "in a little while" without a time. */
export function waitText(seconds: number | null): string {
  if (seconds === null) return "in a little while";
  if (seconds < 60) return seconds <= 1 ? "in a moment" : `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return minutes === 1 ? "in a minute" : `in ${minutes} minutes`;
  return `in ${Math.ceil(minutes / 60)} hours`;
}

// An avatar address comes from the webhook payload: only a plain https URL is ever put in an <img src>.

// Whitespace, control or zero-width characters anywhere: the URL parser would silently drop some, so refuse them all.
function hasInvisible(text: string): boolean {
  if (/[\s\u200b-\u200f\u2060]/u.test(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return true;
  }
  return false;
}

/** The URL to show, normalised, or null for the initials: https only, with a host and no credentials. */
export function avatarSrc(raw: string | null | undefined): string | null {
  if (typeof raw !== "string" || raw.length > 2048 || hasInvisible(raw)) return null;
  // The literal prefix refuses relative and protocol-relative (`//host`) addresses before any parsing.
  if (!/^https:\/\/[^/\\]/i.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || url.hostname === "" || url.username !== "" || url.password !== "") return null;
  return url.href;
}

// Zod-free: pages link every tag to its payer with these.

/** A tag as written anywhere (a leading @, any case): the form a payer's URL may take. */
export const PAYER_TAG_RE = /^@?[A-Za-z0-9._-]{2,32}$/;

/** The payer a tag belongs to: a leading @ and case make no new payer (docs/architecture.md "Payers and chasing"). */
export function payerKey(tag: string): string {
  return tag.trim().replace(/^@/, "").toLowerCase();
}

/** The payer page of a tag. */
export function payerHref(tag: string): string {
  return `/payers/${encodeURIComponent(payerKey(tag))}`;
}

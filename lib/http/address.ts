// Browser-safe: an address as a person reads it. Node reports IPv4 callers on a dual-stack socket as IPv4-mapped
// IPv6 ("::ffff:203.0.113.9"); the dashboard keeps and shows the IPv4 address a person would recognise.

const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** "::ffff:203.0.113.9" → "203.0.113.9"; anything else as it is. */
export function plainAddress(address: string): string {
  return MAPPED.exec(address.trim())?.[1] ?? address.trim();
}

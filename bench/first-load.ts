// First-load JavaScript of one page: every `<script src>` its HTML loads (not the `nomodule` polyfill), each
// fetched and gzipped at level 9, summed.
import { gzipSync } from "node:zlib";

export interface PageWeight {
  /** The URL path measured. */
  page: string;
  /** The route as built, e.g. /requests/[id]. */
  route: string;
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
}

const sizes = new Map<string, { raw: number; gzip: number }>();

async function scriptSize(url: string): Promise<{ raw: number; gzip: number }> {
  const cached = sizes.get(url);
  if (cached) return cached;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  sizes.set(url, size);
  return size;
}

/** Every `<script src>` of the HTML, in order, without duplicates or `nomodule` ones. */
export function scriptSources(html: string, base: string): string[] {
  const out: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = match[1] ?? "";
    if (/\bnomodule\b/i.test(attrs)) continue;
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attrs);
    const value = src?.[1] ?? src?.[2];
    if (!value) continue;
    const url = new URL(value.replace(/&amp;/g, "&"), base).toString();
    if (!out.includes(url)) out.push(url);
  }
  return out;
}

export async function measure(base: string, page: string, route: string, fetchPage: (p: string) => Promise<Response>): Promise<PageWeight> {
  const res = await fetchPage(page);
  const html = await res.text();
  if (res.status !== 200) throw new Error(`page ${page}: HTTP ${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`);
  const scripts = scriptSources(html, base);
  if (scripts.length === 0) throw new Error(`page ${page}: no <script src> in its HTML`);
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const url of scripts) {
    const s = await scriptSize(url);
    rawBytes += s.raw;
    gzipBytes += s.gzip;
  }
  return { page, route, scripts: scripts.length, rawBytes, gzipBytes };
}

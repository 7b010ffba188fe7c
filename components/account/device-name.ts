// A session's user agent as a short readable device name ("Chrome on Linux"), for the account page's sessions table.

const BROWSERS: readonly [RegExp, string][] = [
  // Order matters: Edge, Opera and Samsung Internet also say "Chrome", and Chrome also says "Safari".
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, "Chrome"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  // iPhones and iPads say "like Mac OS X", and Android says "Linux": the specific ones first.
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const UNKNOWN = "Unknown device";
const MAX_PRODUCT = 30;

function first(ua: string, table: readonly [RegExp, string][]): string | null {
  return table.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
}

/** "Chrome on Linux", "Safari on iPhone", "Firefox"; a program that is not a browser by its own name ("curl"); "Unknown device" for nothing. */
export function deviceName(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? "").trim();
  if (ua === "") return UNKNOWN;
  const browser = /^Mozilla\//.test(ua) ? first(ua, BROWSERS) : null;
  const system = first(ua, SYSTEMS);
  if (browser) return system ? `${browser} on ${system}` : browser;
  // Not a browser we know: its first product name (curl/8.5.0 → "curl"), which a person may still recognise.
  const product = /^([A-Za-z][\w.-]*)/.exec(ua)?.[1];
  if (!product || product === "Mozilla") return system ? `Browser on ${system}` : UNKNOWN;
  return product.slice(0, MAX_PRODUCT);
}

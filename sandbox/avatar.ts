// Customer avatars are served locally so payloads never point at a third-party image host.
import { createHash } from "node:crypto";
import { escapeHtml } from "./http-util";

export function avatarSvg(name: string, tag: string): string {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? "")
    .join("");
  const hue = createHash("sha256").update(tag).digest().readUInt16BE(0) % 360;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${escapeHtml(name)}">`,
    `<rect width="64" height="64" rx="32" fill="hsl(${hue}, 45%, 32%)"/>`,
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="24" fill="#ffffff">${escapeHtml(initials)}</text>`,
    "</svg>",
  ].join("");
}

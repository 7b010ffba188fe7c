import "server-only";

import QRCode from "qrcode";

// A pay page's QR code (docs/architecture.md "Pay pages"): its public URL, as SVG for the poster and the download,
// and as PNG for tools that take no SVG. Level M survives a smudged print; the quiet zone is the standard 4 modules.

const OPTIONS = { errorCorrectionLevel: "M", margin: 4 } as const;

/** The page's URL as an SVG QR code (scales to any print size). */
export async function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: "svg" });
}

/** The page's URL as a 1024 px PNG QR code (sharp on an A5 print at 300 dpi). */
export async function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: "png", width: 1024 });
}

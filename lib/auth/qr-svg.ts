import QRCode from "qrcode";

/** An SVG QR code of `text` (the otpauth:// URL), inlined in the setup page. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}

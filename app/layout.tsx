import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";

import { Providers } from "@/components/providers";
import { getConfig } from "@/lib/config";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Fundboard", template: "%s · Fundboard" },
  description: "Merchant dashboard for peer fund requests",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: Next.js can only put proxy.ts's CSP nonce on its scripts at request time.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers timeZone={getConfig().timeZone}>{children}</Providers>
      </body>
    </html>
  );
}

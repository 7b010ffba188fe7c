import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Fundboard", template: "%s · Fundboard" },
  description: "Merchant dashboard for peer fund requests",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: Next.js can only put proxy.ts's CSP nonce on its scripts at request time.
  await connection();
  // Bare: the dashboard layout brings react-query and the time zone; the public pay pages ship neither (docs/architecture.md "Pay pages").
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}

import type { ReactNode } from "react";

// The baseline of the page-weight target: the smallest Next.js 16 app, built with the project's own `next`.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

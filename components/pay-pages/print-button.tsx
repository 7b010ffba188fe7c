"use client";

import { Button } from "@/components/ui/button";

// The poster's Print button: the browser's print dialog, which the poster's print stylesheet sets to A5.
export function PrintButton() {
  return <Button onClick={() => window.print()}>Print</Button>;
}

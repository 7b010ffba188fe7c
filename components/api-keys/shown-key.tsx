"use client";

import { useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

// A key made or rolled a moment ago, whole, this once: the server keeps only its hash, so it is never shown again.
// Focus moves here when it appears, so a keyboard or screen-reader user lands on it.

export interface ShownKeyValue {
  name: string;
  key: string;
  /** What the server said (a roll's says how long the old key keeps working). */
  message: string;
}

export function ShownKey({ shown, onDone }: { shown: ShownKeyValue; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  // The screen keys this panel by the key, so a second key starts afresh (and is focused) too.
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(shown.key);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <Card as="section" aria-labelledby="shown-key-heading" className="space-y-3 border-amber-300 bg-amber-50 p-4" data-testid="shown-key">
      <h2 id="shown-key-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        Your new key for “{shown.name}”
      </h2>
      <p className="text-sm font-medium text-amber-900">Copy it now: it will not be shown again. Fundboard keeps only a fingerprint of it.</p>
      {shown.message ? <p className="text-sm text-slate-700">{shown.message}</p> : null}
      <p className="rounded-md bg-white p-2 font-mono text-sm break-all ring-1 ring-amber-300 select-all" data-testid="shown-key-value">
        {shown.key}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="quiet" onClick={onDone}>
          I have stored it
        </Button>
        <p role="status" className="text-sm text-slate-700">
          {copied === "yes" ? "Copied." : copied === "failed" ? "The browser would not copy it: select the key and copy it by hand." : ""}
        </p>
      </div>
    </Card>
  );
}

"use client";

import { useState } from "react";

import { Button } from "@/components/ui/button";

const FILE_NAME = "fundboard-recovery-codes.txt";

function fileText(codes: readonly string[]): string {
  return [
    "Fundboard recovery codes",
    "Each code signs you in once, in place of the code from your authenticator app.",
    "Keep them somewhere safe and private.",
    "",
    ...codes,
    "",
  ].join("\n");
}

/** The ten recovery codes enable answered: shown this once, with Copy and Download. */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const [note, setNote] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setNote({ kind: "ok", text: "Copied. Paste them into your password manager or another safe place." });
    } catch {
      setNote({ kind: "error", text: "Your browser did not allow copying. Select the codes and copy them by hand, or use Download." });
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([fileText(codes)], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
    // The click has handed the file to the browser's download by now; the URL is not needed again.
    setTimeout(() => URL.revokeObjectURL(url), 0);
    setNote({ kind: "ok", text: `Saved as ${FILE_NAME}. Keep the file somewhere safe.` });
  }

  return (
    <div className="space-y-3">
      <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        <strong>These recovery codes are shown only once.</strong> Save them now: if you lose your phone, each code signs you in once in place of the app&apos;s
        code. Leaving this page hides them for good.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm sm:max-w-md">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code" className="rounded bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="secondary" onClick={download}>
          Download
        </Button>
      </div>
      <p aria-live="polite" className={note?.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
        {note?.text}
      </p>
    </div>
  );
}

"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";

import { TextLink } from "@/components/ui/text-link";
import { ApiError } from "@/lib/client/http/api-fetch";
import { formatMajor } from "@/lib/client/money";
import { payerKey } from "@/lib/client/payers/tag";
import { payerQuery } from "@/lib/client/query/options";

// As a tag is typed in the request form: what Fundboard already knows of that person (from payers), or plainly that
// the tag has never been seen, so a typo is caught before a stranger is asked.

const TAG = /^[A-Za-z0-9._-]{2,32}$/;
// Typing pauses this long before the payer is looked up: one read per tag, not per key press.
const SETTLE_MS = 350;

export function KnownPayer({ tag }: { tag: string }) {
  const key = payerKey(tag.trim());
  const [settled, setSettled] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSettled(TAG.test(key) ? key : ""), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const query = useQuery({ ...payerQuery(settled || "-"), enabled: settled !== "", retry: false, staleTime: 60_000 });
  if (!settled || settled !== key) return null;
  let text: ReactNode = null;
  if (query.isPending) text = "Looking up this tag…";
  else if (query.isError) {
    text =
      query.error instanceof ApiError && query.error.status === 404 ? `@${settled} has never been asked or paid here: check the tag before you send.` : null;
  } else {
    const { payer, payments } = query.data;
    const last = payments[0];
    text = (
      <>
        <span className="font-medium">{payer.name ?? `@${payer.tag}`}</span>: asked {payer.asked}, paid {payer.accepted}, declined {payer.declined}
        {last ? `; last paid ${formatMajor("NGN", last.amount)}` : ""}
        {payer.doNotAsk ? "; marked do not ask" : ""}. <TextLink href={`/payers/${encodeURIComponent(payer.tag)}`}>Their history</TextLink>
      </>
    );
  }
  if (!text) return null;
  return (
    <p className="-mt-2 text-sm text-slate-700" aria-live="polite" data-testid="known-payer">
      {text}
    </p>
  );
}

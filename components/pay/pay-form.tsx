"use client";

// The payer's form: plain React state and fetch, no react-hook-form or zod, so the public page stays as light as a
// blank Next.js page; the proof-of-work runs in a worker loaded after paint (docs/architecture.md "Pay pages").
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";

import type { PayPageAmount } from "@/lib/client/pay-pages/schemas";

import { fieldErrorsOf, readEnvelope, retryAfterSeconds, waitText } from "./answers";
import { nairaText } from "./naira";
import { PayField } from "./pay-field";
import { solveCheck, type SolvedCheck } from "./pow";
import { checkPay, payBody, type PayErrors } from "./validate";

type Check = "idle" | "working" | "ready" | "failed";

const CHECK_TEXT: Record<Check, string> = {
  idle: "",
  working: "Checking you're a person…",
  ready: "Ready",
  failed: "The check that you're a person did not finish.",
};

// The errors shown beside a field (or the check's line); any other goes above the button.
const PLACED = /^(tag|amount|altcha|fields\.\d+)$/;

// A challenge this close to its expiry is solved afresh rather than sent to be refused.
const EXPIRY_MARGIN_MS = 10_000;

function fieldId(key: string): string {
  return key === "tag" ? "pay-tag" : key === "amount" ? "pay-amount" : `pay-${key.replace(".", "-")}`;
}

export function PayForm({ slug, amount, fields }: { slug: string; amount: PayPageAmount; fields: { label: string; required: boolean }[] }) {
  const [tag, setTag] = useState("");
  const [amountText, setAmountText] = useState("");
  const [answers, setAnswers] = useState<string[]>(() => fields.map(() => ""));
  const [errors, setErrors] = useState<PayErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  const [check, setCheck] = useState<Check>("idle");
  const [sending, setSending] = useState(false);
  // One solved challenge per submission: taken when sent, started again for the next try.
  const pending = useRef<Promise<SolvedCheck> | null>(null);

  const startCheck = useCallback((): Promise<SolvedCheck> => {
    if (pending.current) return pending.current;
    const run = solveCheck();
    pending.current = run;
    setCheck("working");
    run.then(
      () => {
        if (pending.current !== run) return;
        setCheck("ready");
        // A refused check's reason goes once a fresh one is ready.
        setErrors(({ altcha: _refused, ...rest }) => rest);
      },
      () => {
        if (pending.current !== run) return;
        pending.current = null;
        setCheck("failed");
      },
    );
    return run;
  }, []);

  useEffect(() => {
    // After the first paint, so the check never holds up the page.
    const timer = window.setTimeout(() => void startCheck(), 0);
    return () => window.clearTimeout(timer);
  }, [startCheck]);

  /** A solved check for this submission, taken so it is never sent twice. */
  async function takeCheck(): Promise<SolvedCheck> {
    let solved = await startCheck();
    if (solved.expiresAt !== null && solved.expiresAt - EXPIRY_MARGIN_MS < Date.now()) {
      pending.current = null;
      solved = await startCheck();
    }
    pending.current = null;
    return solved;
  }

  function showErrors(found: PayErrors): void {
    setErrors(found);
    const first = ["tag", "amount", ...fields.map((_, i) => `fields.${i}`)].find((key) => found[key]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const input = { tag, amount: amountText, answers };
    const local = checkPay(input, amount, fields);
    setFormError(null);
    showErrors(local);
    if (Object.keys(local).length > 0) return;
    setSending(true);
    let solved: SolvedCheck;
    try {
      solved = await takeCheck();
    } catch {
      setFormError("The check that you're a person did not finish. Check your connection, then press Pay again.");
      setSending(false);
      return;
    }
    try {
      const response = await fetch(`/api/public/pay/${encodeURIComponent(slug)}`, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ ...payBody(input, amount, fields.length), altcha: solved.altcha }),
      });
      const answer = await readEnvelope(response);
      const statusUrl = answer.data.statusUrl;
      // Only a path of this site: the answer is ours, but a navigation is no place to trust it blindly.
      if (answer.ok && typeof statusUrl === "string" && /^\/(?![/\\])/.test(statusUrl)) {
        window.location.assign(statusUrl);
        return;
      }
      if (response.status === 409 || response.status === 410) {
        setClosed(answer.message ?? "This page is not taking payments right now.");
      } else if (response.status === 429) {
        // The server says which limit was hit (this connection's, or the page's for the day) and when to come back.
        setFormError(answer.message ?? `Too many tries. Try again ${waitText(retryAfterSeconds(response))}.`);
      } else {
        const server = fieldErrorsOf(answer.data);
        showErrors(server);
        const unplaced = Object.entries(server).find(([key]) => !PLACED.test(key));
        if (unplaced || !Object.keys(server).length) setFormError(unplaced?.[1] ?? answer.message ?? `Something went wrong (${response.status}). Try again.`);
      }
    } catch {
      setFormError("The server could not be reached. Check your connection and try again.");
    }
    setSending(false);
    // The challenge was spent; have the next one ready.
    void startCheck();
  }

  if (closed) {
    return (
      <p role="alert" className="text-base text-slate-800">
        {closed}
      </p>
    );
  }

  const fixed = "fixed" in amount ? amount.fixed : null;
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <PayField
        id="pay-tag"
        label="Your tag"
        hint="Your name in the payment app, like ada_obi"
        error={errors.tag}
        value={tag}
        onValue={setTag}
        onFocus={() => void startCheck()}
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={33}
      />
      {"fixed" in amount ? null : (
        <PayField
          id="pay-amount"
          label="Amount (₦)"
          hint={`From ${nairaText(amount.min)} to ${nairaText(amount.max)}`}
          error={errors.amount}
          value={amountText}
          onValue={setAmountText}
          inputMode="decimal"
          autoComplete="off"
        />
      )}
      {fields.map((field, i) => (
        <PayField
          key={i}
          id={fieldId(`fields.${i}`)}
          label={field.required ? field.label : `${field.label} (optional)`}
          error={errors[`fields.${i}`]}
          value={answers[i] ?? ""}
          onValue={(value) => setAnswers((all) => all.map((a, j) => (j === i ? value : a)))}
          aria-required={field.required || undefined}
          maxLength={100}
        />
      ))}
      {formError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {formError}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={sending}
        className="w-full rounded-lg bg-brand-600 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700 focus:ring-2 focus:ring-brand-500 focus:ring-offset-2 focus:outline-none disabled:opacity-60"
      >
        {sending ? "Sending…" : fixed ? `Pay ${nairaText(fixed)}` : "Pay"}
      </button>
      <div className="flex min-h-6 items-center justify-center gap-3 text-sm">
        <p role="status" className={errors.altcha || check === "failed" ? "text-red-700" : "text-slate-600"}>
          {errors.altcha ?? CHECK_TEXT[check]}
        </p>
        {check === "failed" ? (
          <button type="button" onClick={() => void startCheck()} className="rounded-md px-2 py-1 font-medium text-brand-700 underline">
            Try again
          </button>
        ) : null}
      </div>
    </form>
  );
}

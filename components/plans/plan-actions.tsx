"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, useTransition } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { campaignHref } from "@/components/campaigns/format";
import { Button, buttonClasses } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { TextLink } from "@/components/ui/text-link";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { runPeriodSchema } from "@/lib/client/plans/schemas";
import type { PlanView } from "@/lib/client/plans/view";
import { formatMajor } from "@/lib/client/money";
import { periodLabel } from "@/lib/client/plans/period-label";
import { keys, planPageSearch } from "@/lib/client/query/options";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type StatusChange = "pause" | "resume" | "end";

const CHANGE_WORDS: Record<StatusChange, { button: string; pending: string }> = {
  pause: { button: "Pause", pending: "Pausing…" },
  resume: { button: "Resume", pending: "Resuming…" },
  end: { button: "End plan", pending: "Ending…" },
};

/** Pause, resume and end (with a confirmation): PATCH /api/plans/:id { status }; the plan's queries are re-read. */
export function PlanStatusActions({ plan }: { plan: PlanView }) {
  const client = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const endRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    // Focus moves into the question when it opens, and back to End when it is dismissed.
    if (confirming) confirmRef.current?.focus();
    else if (wasConfirming.current) endRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  if (plan.status === "ended") return null;

  function run(status: StatusChange) {
    setError(null);
    setNotice("");
    startTransition(async () => {
      try {
        // The answer is the plan with the roster's page shown (`?members=`), set in that page's query.
        const url = `/api/plans/${encodeURIComponent(plan.id)}${planPageSearch({ members: plan.rosterPage })}`;
        const { data, message } = await apiFetchWithMessage<PlanView>(url, { method: "PATCH", json: { status } });
        setConfirming(false);
        setNotice(message);
        client.setQueryData(keys.planView(plan.id, data.rosterPage), data);
        await client.invalidateQueries({ queryKey: keys.plans });
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "The plan could not be changed. Try again.");
      }
    });
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        {plan.status === "active" ? (
          <Button variant="secondary" onClick={() => run("pause")} disabled={pending}>
            {CHANGE_WORDS.pause.button}
          </Button>
        ) : (
          <Button onClick={() => run("resume")} disabled={pending}>
            {CHANGE_WORDS.resume.button}
          </Button>
        )}
        {!confirming ? (
          <button ref={endRef} type="button" className={buttonClasses("secondary")} onClick={() => setConfirming(true)} disabled={pending}>
            {CHANGE_WORDS.end.button}
          </button>
        ) : null}
      </div>
      {confirming ? (
        <div role="group" aria-labelledby="end-question" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p id="end-question">End “{plan.name}”? It makes no more periods, and an ended plan cannot be resumed. Its board, periods and campaigns stay.</p>
          <div className="flex flex-wrap gap-2">
            <button ref={confirmRef} type="button" className={buttonClasses("primary")} onClick={() => run("end")} disabled={pending}>
              {pending ? CHANGE_WORDS.end.pending : "Yes, end the plan"}
            </button>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={pending}>
              Keep the plan
            </Button>
          </div>
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="plan-action-status">
        {notice}
      </p>
      {error ? (
        <ErrorNote role="alert" data-testid="plan-action-error">
          {error}
        </ErrorNote>
      ) : null}
    </div>
  );
}

type RunInput = z.input<typeof runPeriodSchema>;
type RunOutput = z.output<typeof runPeriodSchema>;

/**
 * "Run a period" (POST /api/plans/:id/run): the current period (the default) or a missed one, made now and sent at
 * once. A future period or one already made is refused (409) with the server's reason.
 */
export function RunPeriodForm({ plan, current }: { plan: PlanView; current: string }) {
  const client = useQueryClient();
  const form = useForm<RunInput, unknown, RunOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/plans/schemas").then((m) => m.runPeriodSchema)),
    defaultValues: { period: current },
  });
  // A run asks every member at once: it goes out only after a question that says how many people and how much.
  const [asking, setAsking] = useState<RunOutput | null>(null);
  const yesRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yesRef.current?.focus();
  }, [asking]);
  const typed = useWatch({ control: form.control, name: "period" });
  const mutation = useMutation({
    // The answer's plan is the roster's page shown (`?members=`).
    mutationFn: (body: RunOutput) =>
      apiFetchWithMessage<{ plan: PlanView; campaignId: string }>(
        `/api/plans/${encodeURIComponent(plan.id)}/run${planPageSearch({ members: plan.rosterPage })}`,
        { method: "POST", json: body },
      ),
    onSuccess: ({ data }) => {
      setAsking(null);
      client.setQueryData(keys.planView(plan.id, data.plan.rosterPage), data.plan);
      void client.invalidateQueries({ queryKey: keys.plans });
      void client.invalidateQueries({ queryKey: keys.campaignLists });
    },
    onError: (error) => {
      setAsking(null);
      if (error instanceof ApiError) showServerFieldErrors(form.setError, error.fieldErrors, ["period"]);
    },
  });
  if (plan.status === "ended") return null;
  // Over the whole roster, summed by the server: the view carries one page of members (docs/architecture.md "Plans").
  const askable = plan.askable.count;
  const total = plan.askable.amount;
  const typedPeriod = typeof typed === "string" ? typed.trim().toUpperCase() : "";
  const made = plan.periods.some((p) => p.status === "made" && p.period.toUpperCase() === typedPeriod);
  const fieldError = form.formState.errors.period?.message;
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "The period could not be run. Try again.") : null;
  const missed = plan.periods.filter((p) => p.status === "missed").map((p) => p.period);
  return (
    <section aria-labelledby="run-heading" className="space-y-2">
      <h3 id="run-heading" className="font-semibold">
        Run a period
      </h3>
      <form className="flex flex-wrap items-start gap-2" noValidate onSubmit={form.handleSubmit((values) => setAsking(values))}>
        <ReadyFieldset>
          <Field
            id="run-period"
            label="Period"
            error={fieldError}
            hint={
              made
                ? `${periodLabel(typedPeriod)} (${typedPeriod}) has already been made: each period is asked once`
                : `The current period (${periodLabel(current)}, ${current})${missed.length > 0 ? ` or a missed one (${missed.join(", ")})` : ""}: asked now, once`
            }
          >
            <input
              id="run-period"
              autoComplete="off"
              maxLength={8}
              className={`${inputClass} max-w-40`}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? "run-period-error" : "run-period-hint"}
              {...form.register("period")}
            />
          </Field>
          <Button type="submit" className="mt-6" disabled={mutation.isPending || made || asking !== null}>
            {mutation.isPending ? "Running…" : "Run now"}
          </Button>
        </ReadyFieldset>
      </form>
      {asking ? (
        <div
          role="group"
          aria-labelledby="run-question"
          className="space-y-3 rounded-md border border-brand-300 bg-brand-50 p-3 text-sm"
          data-testid="run-question"
        >
          <p id="run-question">
            Ask {askable.toLocaleString("en")} {askable === 1 ? "person" : "people"} for {formatMajor("NGN", total)} in all for {periodLabel(asking.period)}{" "}
            now? Each is asked once in the app; the service cannot withdraw a request once it is sent.
          </p>
          <div className="flex flex-wrap gap-2">
            <button ref={yesRef} type="button" className={buttonClasses("primary")} onClick={() => mutation.mutate(asking)} disabled={mutation.isPending}>
              {mutation.isPending ? "Running…" : `Yes, ask ${askable.toLocaleString("en")} ${askable === 1 ? "person" : "people"}`}
            </button>
            <Button variant="secondary" onClick={() => setAsking(null)} disabled={mutation.isPending}>
              Not yet
            </Button>
          </div>
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="run-status">
        {mutation.isSuccess ? (
          <>
            {mutation.data.message} <TextLink href={campaignHref(mutation.data.data.campaignId)}>Open its campaign</TextLink>.
          </>
        ) : (
          ""
        )}
      </p>
      {error ? (
        <ErrorNote role="alert" data-testid="run-error">
          {error}
        </ErrorNote>
      ) : null}
    </section>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, useTransition } from "react";

import { Button, buttonClasses } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { allowedTransitions, TRANSITIONS, type Transition } from "@/lib/client/campaigns/transitions";
import type { CampaignStatus, CampaignView } from "@/lib/client/campaigns/view";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { formatMajor } from "@/lib/client/money";
import { keys } from "@/lib/client/query/options";

/**
 * Start (after a question that says how many people and how much), pause, resume and cancel (with a confirmation);
 * the campaign's queries are re-read with the new status.
 */
export function CampaignActions({
  id,
  name,
  status,
  sendable,
  asked = null,
}: {
  id: string;
  name: string;
  status: CampaignStatus;
  sendable: number;
  /** The total the sendable rows ask for (naira); null when not known. */
  asked?: string | null;
}) {
  const client = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const startRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);

  useEffect(() => {
    if (starting) startRef.current?.focus();
  }, [starting]);

  useEffect(() => {
    // Focus moves into the question when it opens, and back to Cancel when it is dismissed.
    if (confirming) confirmRef.current?.focus();
    else if (wasConfirming.current) cancelRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

  const actions = allowedTransitions(status);
  if (actions.length === 0) return null;

  function run(action: Transition) {
    setError(null);
    setNotice("");
    startTransition(async () => {
      try {
        const view = await apiFetch<CampaignView>(`/api/campaigns/${encodeURIComponent(id)}/${action}`, { method: "POST" });
        setConfirming(false);
        setStarting(false);
        setNotice(TRANSITIONS[action].done);
        client.setQueryData(keys.campaign(id), view);
        // Its rows (a cancel skips the queued ones) and the list; the campaign.progress event would do it too, a moment later.
        await Promise.all([client.invalidateQueries({ queryKey: keys.campaign(id) }), client.invalidateQueries({ queryKey: keys.campaignLists })]);
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "The campaign could not be changed. Try again.");
      }
    });
  }

  const nothingToSend = status === "draft" && sendable === 0;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        {actions.includes("start") && !starting ? (
          <Button
            onClick={() => setStarting(true)}
            disabled={pending || nothingToSend}
            aria-describedby={nothingToSend ? "campaign-nothing-to-send" : undefined}
          >
            {`Start sending ${people(sendable)}`}
          </Button>
        ) : null}
        {actions.includes("pause") ? (
          <Button variant="secondary" onClick={() => run("pause")} disabled={pending}>
            Pause
          </Button>
        ) : null}
        {actions.includes("resume") ? (
          <Button onClick={() => run("resume")} disabled={pending}>
            Resume
          </Button>
        ) : null}
        {actions.includes("cancel") && !confirming ? (
          <button ref={cancelRef} type="button" className={buttonClasses("secondary")} onClick={() => setConfirming(true)} disabled={pending}>
            {status === "draft" ? "Discard draft" : "Cancel campaign"}
          </button>
        ) : null}
      </div>
      {nothingToSend ? (
        <p id="campaign-nothing-to-send" className="text-sm text-slate-700">
          Every row is invalid, so there is nothing to send. Fix the file and upload it again.
        </p>
      ) : null}
      {starting ? (
        <div
          role="group"
          aria-labelledby="start-question"
          className="space-y-3 rounded-md border border-brand-300 bg-brand-50 p-3 text-sm"
          data-testid="start-question"
        >
          <p id="start-question">
            Send {people(sendable)} now{asked ? `, asking ${formatMajor("NGN", asked)} in all` : ""}? Each person is asked once in the app; the service cannot
            withdraw a request once it is sent.
          </p>
          <div className="flex flex-wrap gap-2">
            <button ref={startRef} type="button" className={buttonClasses("primary")} onClick={() => run("start")} disabled={pending}>
              {pending ? "Starting…" : `Yes, send ${people(sendable)}`}
            </button>
            <Button variant="secondary" onClick={() => setStarting(false)} disabled={pending}>
              Not yet
            </Button>
          </div>
        </div>
      ) : null}
      {confirming ? (
        <div role="group" aria-labelledby="cancel-question" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p id="cancel-question">
            {status === "draft"
              ? `Discard “${name}”? Nothing has been sent; the campaign is kept as cancelled.`
              : `Cancel “${name}”? Rows not sent yet will never be sent. Requests already sent stay open for the people who got them.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <button ref={confirmRef} type="button" className={buttonClasses("primary")} onClick={() => run("cancel")} disabled={pending}>
              {pending ? "Cancelling…" : status === "draft" ? "Yes, discard it" : "Yes, cancel the campaign"}
            </button>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={pending}>
              {status === "draft" ? "Keep the draft" : "Keep the campaign"}
            </Button>
          </div>
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="campaign-action-status">
        {notice}
      </p>
      {error ? (
        <ErrorNote role="alert" data-testid="campaign-action-error">
          {error}
        </ErrorNote>
      ) : null}
    </div>
  );
}

const people = (n: number) => `${n.toLocaleString("en")} request${n === 1 ? "" : "s"}`;

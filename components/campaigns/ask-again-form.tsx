"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { askAgainSchema } from "@/lib/client/campaigns/schemas";
import { ASK_AGAIN_STATES, type AskAgainState } from "@/lib/client/campaigns/constants";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { keys } from "@/lib/client/query/options";

import { campaignHref } from "./format";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof askAgainSchema>;
type FormOutput = z.output<typeof askAgainSchema>;

const STATE_WORDS: Record<AskAgainState, string> = {
  declined: "Those who declined",
  failed: "Those whose request failed",
  unanswered: "Those still to answer",
};

/**
 * "Ask again" (POST /api/campaigns/:id/ask-again): whom to chase, and for the unanswered how long they have had; the
 * answer is a draft round whose preview lists who is left out and why. The server applies the same rule as the API.
 */
export function AskAgainForm({ campaign }: { campaign: CampaignView }) {
  const router = useRouter();
  const client = useQueryClient();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/campaigns/schemas").then((m) => m.askAgainSchema)),
    defaultValues: { include: ["declined"], unansweredForHours: 24, overrideCooldown: false },
  });
  const mutation = useMutation({
    mutationFn: (body: FormOutput) =>
      apiFetchWithMessage<{ campaign: CampaignView }>(`/api/campaigns/${campaign.id}/ask-again`, { method: "POST", json: body }),
    onSuccess: ({ data }) => {
      void client.invalidateQueries({ queryKey: keys.campaignLists });
      router.push(campaignHref(data.campaign.id));
    },
  });
  const chosen = useWatch({ control: form.control, name: "include" });
  const errors = form.formState.errors;
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "The round could not be made. Try again.") : null;
  return (
    <section aria-labelledby="ask-again-heading" className="space-y-3">
      <h2 id="ask-again-heading" className="text-lg font-semibold">
        Ask again
      </h2>
      <form className="space-y-3" noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <ReadyFieldset className="space-y-3">
          <fieldset className="space-y-1" aria-describedby={errors.include ? "ask-again-include-error" : undefined}>
            <legend className="text-sm font-medium">Whom to ask again</legend>
            {ASK_AGAIN_STATES.map((state) => (
              <label key={state} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={state} {...form.register("include")} />
                {STATE_WORDS[state]}
              </label>
            ))}
            {errors.include?.message ? (
              <p id="ask-again-include-error" role="alert" className="text-sm text-red-700">
                {errors.include.message}
              </p>
            ) : null}
          </fieldset>
          {Array.isArray(chosen) && chosen.includes("unanswered") ? (
            <div className="space-y-1">
              <Field id="ask-again-hours" label="Still to answer after at least (hours)" error={errors.unansweredForHours?.message}>
                <input id="ask-again-hours" type="number" min={0} max={2160} className={inputClass} {...form.register("unansweredForHours")} />
              </Field>
              <p className="text-sm text-amber-900">
                The service cannot withdraw a request: those still to answer will hold two open requests. If both are paid, the second payment is to be
                refunded.
              </p>
            </div>
          ) : null}
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-1" data-testid="ask-again-override-cooldown" {...form.register("overrideCooldown")} />
            <span>Ask people who declined recently too, for this round only (the cool-down is overridden and the audit log says who chose it)</span>
          </label>
          <p className="text-sm text-slate-700">
            This makes a draft round. Its preview lists everyone left out and why (already paid, asked not to be asked, declined recently and until when, asked
            enough, a request still open, asked too recently, a tag the service does not know, or not in the states chosen); nothing is sent until you start it.
          </p>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? "Making the round…" : "Make the next round"}
          </Button>
          {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
        </ReadyFieldset>
      </form>
    </section>
  );
}

/** The family of rounds: each round, and one count of who has paid over all of them. */
export function CampaignFamilyPanel({ campaign }: { campaign: CampaignView }) {
  const family = campaign.family;
  if (!family || family.rounds.length < 2) return null;
  return (
    <section aria-labelledby="family-heading" className="space-y-2">
      <h2 id="family-heading" className="text-lg font-semibold">
        Rounds
      </h2>
      <p className="text-sm text-slate-800" data-testid="family-paid">
        {family.paid.toLocaleString("en")} of {family.asked.toLocaleString("en")} people asked have paid, over all rounds.
      </p>
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        {family.rounds.map((r) => (
          <li key={r.id} data-testid="family-round">
            {r.id === campaign.id ? (
              <span className="font-medium">{r.name} (this one)</span>
            ) : (
              <a href={campaignHref(r.id)} className="underline">
                {r.name}
              </a>
            )}{" "}
            · {r.status}
          </li>
        ))}
      </ol>
    </section>
  );
}

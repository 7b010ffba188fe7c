"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { memberChangeFormSchema } from "@/lib/client/plans/schemas";
import type { PlanView } from "@/lib/client/plans/view";
import { keys, planPageSearch } from "@/lib/client/query/options";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof memberChangeFormSchema>;
type FormOutput = z.output<typeof memberChangeFormSchema>;

const ACTION_WORDS = { add: "Add a member", remove: "Remove a member", change: "Change a member's amount" } as const;

/** One member added, removed or re-priced (PATCH /api/plans/:id { members }), from the next period on. */
export function MemberChangeForm({ planId, members }: { planId: string; members: number }) {
  const client = useQueryClient();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/plans/schemas").then((m) => m.memberChangeFormSchema)),
    defaultValues: { action: "add", tag: "", amount: "" },
  });
  const mutation = useMutation({
    mutationFn: (body: FormOutput) =>
      apiFetchWithMessage<PlanView>(`/api/plans/${encodeURIComponent(planId)}${planPageSearch({ members })}`, { method: "PATCH", json: body }),
    onSuccess: ({ data }) => {
      client.setQueryData(keys.planView(planId, data.rosterPage), data);
      void client.invalidateQueries({ queryKey: keys.plans });
      form.reset({ action: form.getValues("action"), tag: "", amount: "" });
    },
  });
  const action = useWatch({ control: form.control, name: "action" });
  const errors = form.formState.errors;
  const error = mutation.isError ? (mutation.error instanceof ApiError ? mutation.error.message : "The members could not be changed. Try again.") : null;
  return (
    <section aria-labelledby="change-members-heading" className={cardClasses("max-w-xl space-y-3 p-4")}>
      <h3 id="change-members-heading" className="font-semibold">
        Change members
      </h3>
      <p className="text-sm text-slate-700">A change applies from the next period on; periods already made keep their campaign.</p>
      <form className="grid gap-3 sm:grid-cols-2" noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
        <ReadyFieldset>
          <Field id="member-action" label="Change" error={errors.action?.message}>
            <select id="member-action" className={inputClass} {...form.register("action")}>
              {(Object.keys(ACTION_WORDS) as (keyof typeof ACTION_WORDS)[]).map((a) => (
                <option key={a} value={a}>
                  {ACTION_WORDS[a]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="member-tag" label="Tag" error={errors.tag?.message}>
            <input
              id="member-tag"
              autoComplete="off"
              maxLength={33}
              placeholder="e.g. ada.obi"
              className={inputClass}
              aria-invalid={errors.tag ? true : undefined}
              aria-describedby={errors.tag ? "member-tag-error" : undefined}
              {...form.register("tag")}
            />
          </Field>
          {action !== "remove" ? (
            <Field id="member-amount" label="Amount (₦)" error={errors.amount?.message}>
              <input
                id="member-amount"
                inputMode="decimal"
                autoComplete="off"
                placeholder="e.g. 1500"
                className={inputClass}
                aria-invalid={errors.amount ? true : undefined}
                aria-describedby={errors.amount ? "member-amount-error" : undefined}
                {...form.register("amount")}
              />
            </Field>
          ) : null}
          <div className="flex items-end sm:col-span-2">
            <Button type="submit" variant="secondary" disabled={mutation.isPending}>
              {mutation.isPending ? "Saving…" : ACTION_WORDS[action ?? "add"]}
            </Button>
          </div>
        </ReadyFieldset>
      </form>
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="members-status">
        {mutation.isSuccess ? mutation.data.message : ""}
      </p>
      {error ? <ErrorNote role="alert">{error}</ErrorNote> : null}
    </section>
  );
}

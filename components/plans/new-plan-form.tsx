"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch, type FieldPath } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { useTimeZone } from "@/components/ui/local-time";
import { ASK_AGAIN_STATES, type AskAgainState } from "@/lib/client/campaigns/constants";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { FREQUENCIES, nextRun, type Frequency } from "@/lib/client/plans/schedule";
import type { planUploadFormSchema } from "@/lib/client/plans/schemas";
import type { PlanView } from "@/lib/client/plans/view";
import { formatTime } from "@/lib/client/time/format";

import { FREQUENCY_WORDS, dayHint, planHref } from "./format";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof planUploadFormSchema>;
type FormOutput = z.output<typeof planUploadFormSchema>;

const fileClass =
  "block w-full rounded-md border border-slate-300 text-sm text-slate-900 shadow-sm file:mr-3 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-100 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none aria-invalid:border-red-500";

const CHASE_WORDS: Record<AskAgainState, string> = {
  declined: "Those who declined",
  failed: "Those whose request failed",
  unanswered: "Those still to answer",
};

/** Every field the server may name in a 422's fieldErrors, placed beside its own control. */
const FIELDS: readonly FieldPath<FormInput>[] = [
  "name",
  "file",
  "frequency",
  "day",
  "sendAt",
  "startsOn",
  "endsOn",
  "descriptionTemplate",
  "chaseAfterHours",
  "chaseTimes",
  "chaseInclude",
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The next run for the schedule as typed so far, or why there is none yet (zod-free: the schedule helpers only). */
function previewText(v: { frequency: unknown; day: unknown; sendAt: unknown; startsOn: unknown; endsOn: unknown }, timeZone: string, now: Date): string {
  const frequency = FREQUENCIES.find((f) => f === v.frequency);
  const day = Number(v.day);
  const high = frequency === "weekly" ? 7 : 28;
  const sendAt = typeof v.sendAt === "string" ? v.sendAt.trim() : "";
  const startsOn = typeof v.startsOn === "string" ? v.startsOn : "";
  const endsOn = typeof v.endsOn === "string" && v.endsOn !== "" ? v.endsOn : null;
  if (!frequency || !Number.isInteger(day) || day < 1 || day > high || !/^([01]\d|2[0-3]):[0-5]\d$/.test(sendAt) || !DAY.test(startsOn)) {
    return "Next run: fill in the schedule to see it.";
  }
  if (endsOn !== null && (!DAY.test(endsOn) || endsOn < startsOn)) return "Next run: fill in the schedule to see it.";
  const next = nextRun({ frequency, day, sendAt, startsOn, endsOn, timeZone }, now);
  if (!next) return "Next run: none: the plan ends before its first period is due.";
  return `Next run: ${formatTime(next.dueAt.toISOString(), timeZone)} (period ${next.period}), ${timeZone} time.`;
}

/**
 * A plan's name, roster and schedule, sent as multipart to POST /api/plans (fields checked with the handler's schema);
 * the answer is the plan, whose page shows its members and dues board. `today` and `now` come from the server.
 */
export function NewPlanForm({ today, now }: { today: string; now: string }) {
  const router = useRouter();
  const timeZone = useTimeZone();
  const [serverError, setServerError] = useState<string | null>(null);
  const [made, setMade] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/plans/schemas").then((m) => m.planUploadFormSchema)),
    defaultValues: {
      name: "",
      file: undefined,
      frequency: "monthly",
      day: "1",
      sendAt: "09:00",
      startsOn: today,
      endsOn: "",
      descriptionTemplate: "{period} dues",
      chaseAfterHours: "",
      chaseTimes: "",
      chaseInclude: [],
    },
  });
  const { errors, isSubmitting } = form.formState;
  const [frequency, day, sendAt, startsOn, endsOn] = useWatch({ control: form.control, name: ["frequency", "day", "sendAt", "startsOn", "endsOn"] });
  const preview = previewText({ frequency, day, sendAt, startsOn, endsOn }, timeZone, new Date(now));
  const hint = dayHint((FREQUENCIES.find((f) => f === frequency) ?? "monthly") as Frequency);

  async function onSubmit(values: FormOutput) {
    if (made) return;
    setServerError(null);
    const data = new FormData();
    data.set("name", values.name);
    data.set("file", values.file);
    data.set("frequency", values.frequency);
    data.set("day", String(values.day));
    data.set("sendAt", values.sendAt);
    data.set("startsOn", values.startsOn);
    if (values.endsOn) data.set("endsOn", values.endsOn);
    data.set("descriptionTemplate", values.descriptionTemplate);
    if (values.chaseAfterHours !== undefined) data.set("chaseAfterHours", String(values.chaseAfterHours));
    if (values.chaseTimes !== undefined) data.set("chaseTimes", String(values.chaseTimes));
    for (const state of values.chaseInclude ?? []) data.append("chaseInclude", state);
    try {
      const plan = await apiFetch<PlanView>("/api/plans", { method: "POST", body: data });
      setMade(true);
      router.push(planHref(plan.id));
    } catch (error) {
      if (error instanceof ApiError) {
        showServerFieldErrors(form.setError, error.fieldErrors, FIELDS);
        // The server's own words: what is wrong with the fields or the roster (size, type, header, CSV).
        setServerError(error.message);
      } else {
        setServerError("The plan could not be made. Try again.");
      }
    }
  }

  const describedBy = (id: string, error: string | undefined) => (error ? `${id}-error` : `${id}-hint`);
  const invalid = (error: unknown) => (error ? true : undefined);

  return (
    <form
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      encType="multipart/form-data"
      className={cardClasses("max-w-xl space-y-4 p-4")}
      aria-describedby={serverError ? "plan-server-error" : undefined}
    >
      <ReadyFieldset className="space-y-4">
        <Field id="plan-name" label="Name" error={errors.name?.message} hint="For staff only, e.g. “Estate dues”; each period's campaign is named after it">
          <input
            id="plan-name"
            autoComplete="off"
            maxLength={120}
            className={inputClass}
            aria-invalid={invalid(errors.name)}
            aria-describedby={describedBy("plan-name", errors.name?.message)}
            {...form.register("name")}
          />
        </Field>
        <Field id="plan-file" label="Roster (CSV file)" error={errors.file?.message} hint="Tag and amount per member, optional description; see the format">
          <input
            id="plan-file"
            type="file"
            accept=".csv,text/csv"
            className={fileClass}
            aria-invalid={invalid(errors.file)}
            aria-describedby={`${describedBy("plan-file", errors.file?.message)} plan-format`}
            {...form.register("file")}
          />
        </Field>
        <fieldset className="space-y-4">
          <legend className="text-base font-semibold">Schedule</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="plan-frequency" label="Frequency" error={errors.frequency?.message}>
              <select
                id="plan-frequency"
                className={inputClass}
                aria-invalid={invalid(errors.frequency)}
                aria-describedby={errors.frequency ? "plan-frequency-error" : undefined}
                {...form.register("frequency")}
              >
                {FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {FREQUENCY_WORDS[f]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="plan-day" label="Day" error={errors.day?.message} hint={hint}>
              <input
                id="plan-day"
                type="number"
                inputMode="numeric"
                min={1}
                max={frequency === "weekly" ? 7 : 28}
                className={inputClass}
                aria-invalid={invalid(errors.day)}
                aria-describedby={describedBy("plan-day", errors.day?.message)}
                {...form.register("day")}
              />
            </Field>
            <Field id="plan-send-at" label="Send time (HH:MM)" error={errors.sendAt?.message} hint={`24-hour clock, ${timeZone} time`}>
              <input
                id="plan-send-at"
                autoComplete="off"
                placeholder="09:00"
                maxLength={5}
                className={inputClass}
                aria-invalid={invalid(errors.sendAt)}
                aria-describedby={describedBy("plan-send-at", errors.sendAt?.message)}
                {...form.register("sendAt")}
              />
            </Field>
            <Field id="plan-starts-on" label="Starts on" error={errors.startsOn?.message} hint="The first day a period may be due">
              <input
                id="plan-starts-on"
                type="date"
                className={inputClass}
                aria-invalid={invalid(errors.startsOn)}
                aria-describedby={describedBy("plan-starts-on", errors.startsOn?.message)}
                {...form.register("startsOn")}
              />
            </Field>
            <Field id="plan-ends-on" label="Ends on (optional)" error={errors.endsOn?.message} hint="Leave empty for no end">
              <input
                id="plan-ends-on"
                type="date"
                className={inputClass}
                aria-invalid={invalid(errors.endsOn)}
                aria-describedby={describedBy("plan-ends-on", errors.endsOn?.message)}
                {...form.register("endsOn")}
              />
            </Field>
          </div>
          <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-800" aria-live="polite" data-testid="plan-next-run">
            {preview}
          </p>
        </fieldset>
        <Field
          id="plan-template"
          label="Description"
          error={errors.descriptionTemplate?.message}
          hint="What each member sees; {period} becomes the period, e.g. “{period} estate dues” reads “2026-12 estate dues”. A member's own description wins."
        >
          <input
            id="plan-template"
            autoComplete="off"
            className={inputClass}
            aria-invalid={invalid(errors.descriptionTemplate)}
            aria-describedby={describedBy("plan-template", errors.descriptionTemplate?.message)}
            {...form.register("descriptionTemplate")}
          />
        </Field>
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold">Chasing (optional)</legend>
          <p className="text-sm text-slate-700">Ask again automatically within each period; leave all three empty not to chase.</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="plan-chase-hours" label="After (hours)" error={errors.chaseAfterHours?.message} hint="1–720 hours after the period is asked">
              <input
                id="plan-chase-hours"
                type="number"
                inputMode="numeric"
                min={1}
                max={720}
                className={inputClass}
                aria-invalid={invalid(errors.chaseAfterHours)}
                aria-describedby={describedBy("plan-chase-hours", errors.chaseAfterHours?.message)}
                {...form.register("chaseAfterHours")}
              />
            </Field>
            <Field id="plan-chase-times" label="Rounds" error={errors.chaseTimes?.message} hint="1–5 rounds a period">
              <input
                id="plan-chase-times"
                type="number"
                inputMode="numeric"
                min={1}
                max={5}
                className={inputClass}
                aria-invalid={invalid(errors.chaseTimes)}
                aria-describedby={describedBy("plan-chase-times", errors.chaseTimes?.message)}
                {...form.register("chaseTimes")}
              />
            </Field>
          </div>
          <fieldset className="space-y-1" aria-describedby={errors.chaseInclude ? "plan-chase-include-error" : undefined}>
            <legend className="text-sm font-medium text-slate-700">Whom to ask again</legend>
            {ASK_AGAIN_STATES.map((state) => (
              <label key={state} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={state} {...form.register("chaseInclude")} />
                {CHASE_WORDS[state]}
              </label>
            ))}
            {errors.chaseInclude?.message ? (
              <p id="plan-chase-include-error" role="alert" className="text-sm text-red-700">
                {errors.chaseInclude.message}
              </p>
            ) : null}
          </fieldset>
        </fieldset>
        {serverError ? (
          <ErrorNote as="div" id="plan-server-error" role="alert" data-testid="plan-upload-error">
            <p>{serverError}</p>
          </ErrorNote>
        ) : null}
        <div className="space-y-2">
          <Button type="submit" disabled={isSubmitting || made}>
            {isSubmitting ? "Making the plan…" : made ? "Made — opening the plan…" : "Make the plan"}
          </Button>
          <p className="text-xs text-slate-600">Nothing is sent now: each period is asked at its time, or when you run it from the plan&apos;s page.</p>
        </div>
      </ReadyFieldset>
    </form>
  );
}

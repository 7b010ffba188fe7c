"use client";

import { useFieldArray, useWatch, type FieldPath, type UseFormReturn } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { useTimeZone } from "@/components/ui/local-time";

import { MAX_EXTRA_FIELDS, type PayPageFormValues } from "./form-values";

// The controls both pay page forms share (make and change): title, description, amount, extra questions, plan and
// limits. `prefix` keeps the ids of two forms on one screen apart.

export interface PlanChoice {
  id: string;
  name: string;
}

/** Every control the server may name in a 422's fieldErrors, the questions' labels included. */
export function serverFieldNames(questions: number): FieldPath<PayPageFormValues>[] {
  const base: FieldPath<PayPageFormValues>[] = [
    "slug",
    "title",
    "description",
    "amount",
    "amount.fixed",
    "amount.min",
    "amount.max",
    "fields",
    "planId",
    "active",
    "expiresAt",
    "maxPayments",
    "successMessage",
    "dailyLimit",
  ];
  return [...base, ...Array.from({ length: questions }, (_, i) => `fields.${i}.label` as const)];
}

/** aria-describedby for a control: its error when there is one, else its hint. */
const describedBy = (id: string, error: unknown, hint = true) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

export function PayPageFields<Out>({
  form,
  prefix,
  plans,
  slug,
}: {
  form: UseFormReturn<PayPageFormValues, unknown, Out>;
  prefix: string;
  plans: readonly PlanChoice[];
  /** The make form asks for the address; the change form has none (it stays for good). */
  slug: boolean;
}) {
  const timeZone = useTimeZone();
  const { register, control } = form;
  const { errors } = form.formState;
  const kind = useWatch({ control, name: "amount.kind" });
  const questions = useFieldArray({ control, name: "fields" });
  const id = (name: string) => `${prefix}-${name}`;
  const amountError = errors.amount?.message;
  const fieldsError = errors.fields?.root?.message ?? errors.fields?.message;

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        {slug ? (
          <Field
            id={id("slug")}
            label="Address"
            hint="The page is /pay/ and this: 3–60 of a–z, 0–9 and -. It cannot change later (printed codes point at it)."
            error={errors.slug?.message}
          >
            <div className="flex items-stretch">
              <span
                className="inline-flex items-center rounded-l-md border border-r-0 border-slate-300 bg-slate-50 px-2 text-sm text-slate-600"
                aria-hidden="true"
              >
                /pay/
              </span>
              <input
                id={id("slug")}
                className={`${inputClass} min-w-0 rounded-l-none`}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                aria-invalid={errors.slug ? true : undefined}
                aria-describedby={describedBy(id("slug"), errors.slug)}
                {...register("slug")}
              />
            </div>
          </Field>
        ) : null}
        <Field id={id("title")} label="Title" hint="What the payer sees at the top of the page and in the request." error={errors.title?.message}>
          <input
            id={id("title")}
            className={inputClass}
            autoComplete="off"
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={describedBy(id("title"), errors.title)}
            {...register("title")}
          />
        </Field>
      </div>
      <Field
        id={id("description")}
        label="Description (optional)"
        hint="A line or two under the title: what the payment is for."
        error={errors.description?.message}
      >
        <textarea
          id={id("description")}
          rows={2}
          className={inputClass}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy(id("description"), errors.description)}
          {...register("description")}
        />
      </Field>

      <fieldset className="space-y-3" aria-describedby={amountError ? id("amount-error") : undefined}>
        <legend className="text-sm font-medium text-slate-700">Amount</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" value="fixed" {...register("amount.kind")} />A fixed amount
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" value="range" {...register("amount.kind")} />
            The payer chooses, within limits
          </label>
        </div>
        {kind === "fixed" ? (
          <div className="max-w-xs">
            <Field id={id("fixed")} label="Amount in naira" error={errors.amount?.fixed?.message}>
              <input
                id={id("fixed")}
                inputMode="decimal"
                className={inputClass}
                autoComplete="off"
                aria-invalid={errors.amount?.fixed ? true : undefined}
                aria-describedby={describedBy(id("fixed"), errors.amount?.fixed, false)}
                {...register("amount.fixed")}
              />
            </Field>
          </div>
        ) : (
          <div className="grid max-w-lg gap-4 sm:grid-cols-2">
            <Field id={id("min")} label="Least, in naira" error={errors.amount?.min?.message}>
              <input
                id={id("min")}
                inputMode="decimal"
                className={inputClass}
                autoComplete="off"
                aria-invalid={errors.amount?.min ? true : undefined}
                aria-describedby={describedBy(id("min"), errors.amount?.min, false)}
                {...register("amount.min")}
              />
            </Field>
            <Field id={id("max")} label="Most, in naira" error={errors.amount?.max?.message}>
              <input
                id={id("max")}
                inputMode="decimal"
                className={inputClass}
                autoComplete="off"
                aria-invalid={errors.amount?.max ? true : undefined}
                aria-describedby={describedBy(id("max"), errors.amount?.max, false)}
                {...register("amount.max")}
              />
            </Field>
          </div>
        )}
        {amountError ? (
          <p id={id("amount-error")} role="alert" className="text-sm text-red-700">
            {amountError}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3" aria-describedby={fieldsError ? id("fields-error") : id("fields-hint")}>
        <legend className="text-sm font-medium text-slate-700">Extra questions (optional)</legend>
        <p id={id("fields-hint")} className="text-xs text-slate-600">
          Up to {MAX_EXTRA_FIELDS}, such as a flat or member number. Tick “Your reference” on the one your books know the payer by: it goes into the request and
          the exports.
        </p>
        {questions.fields.length > 0 ? (
          <ol className="space-y-3">
            {questions.fields.map((q, index) => {
              const labelError = errors.fields?.[index]?.label;
              return (
                <li key={q.id} className="flex flex-wrap items-end gap-x-4 gap-y-2 rounded-md border border-slate-200 p-3">
                  <div className="min-w-0 flex-1 basis-56">
                    <Field id={id(`field-${index}`)} label={`Question ${index + 1}`} error={labelError?.message}>
                      <input
                        id={id(`field-${index}`)}
                        className={inputClass}
                        autoComplete="off"
                        aria-invalid={labelError ? true : undefined}
                        aria-describedby={describedBy(id(`field-${index}`), labelError, false)}
                        {...register(`fields.${index}.label`)}
                      />
                    </Field>
                  </div>
                  <label className="flex items-center gap-2 py-2 text-sm">
                    <input type="checkbox" {...register(`fields.${index}.required`)} />
                    Required
                  </label>
                  <label className="flex items-center gap-2 py-2 text-sm">
                    <input type="checkbox" {...register(`fields.${index}.reference`)} />
                    Your reference
                  </label>
                  <Button variant="quiet" className="mb-1" onClick={() => questions.remove(index)} aria-label={`Remove question ${index + 1}`}>
                    Remove
                  </Button>
                </li>
              );
            })}
          </ol>
        ) : null}
        {fieldsError ? (
          <p id={id("fields-error")} role="alert" className="text-sm text-red-700">
            {fieldsError}
          </p>
        ) : null}
        <Button
          variant="secondary"
          disabled={questions.fields.length >= MAX_EXTRA_FIELDS}
          onClick={() => questions.append({ label: "", required: false, reference: false }, { shouldFocus: true })}
        >
          Add a question
        </Button>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={id("plan")}
          label="Join a plan (optional)"
          hint="Paying joins the payer to the plan, asked its dues from then on. A plan's page asks a fixed amount."
          error={errors.planId?.message}
        >
          <select
            id={id("plan")}
            className={inputClass}
            aria-invalid={errors.planId ? true : undefined}
            aria-describedby={describedBy(id("plan"), errors.planId)}
            {...register("planId")}
          >
            <option value="">No plan</option>
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id={id("expires")}
          label="Closes at (optional)"
          hint={`${timeZone} time. Empty: it stays open until you turn it off.`}
          error={errors.expiresAt?.message}
        >
          <input
            id={id("expires")}
            type="datetime-local"
            className={inputClass}
            aria-invalid={errors.expiresAt ? true : undefined}
            aria-describedby={describedBy(id("expires"), errors.expiresAt)}
            {...register("expiresAt")}
          />
        </Field>
        <Field
          id={id("max-payments")}
          label="Most payments (optional)"
          hint="It closes once this many are paid. Empty: no limit."
          error={errors.maxPayments?.message}
        >
          <input
            id={id("max-payments")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className={inputClass}
            aria-invalid={errors.maxPayments ? true : undefined}
            aria-describedby={describedBy(id("max-payments"), errors.maxPayments)}
            {...register("maxPayments")}
          />
        </Field>
        <Field
          id={id("daily")}
          label="Most submissions a day"
          hint="A guard against floods: past it, the page takes no more submissions that day."
          error={errors.dailyLimit?.message}
        >
          <input
            id={id("daily")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className={inputClass}
            aria-invalid={errors.dailyLimit ? true : undefined}
            aria-describedby={describedBy(id("daily"), errors.dailyLimit)}
            {...register("dailyLimit")}
          />
        </Field>
      </div>
      <Field id={id("success")} label="Message once paid" hint="What the payer reads after accepting the request." error={errors.successMessage?.message}>
        <input
          id={id("success")}
          className={inputClass}
          autoComplete="off"
          aria-invalid={errors.successMessage ? true : undefined}
          aria-describedby={describedBy(id("success"), errors.successMessage)}
          {...register("successMessage")}
        />
      </Field>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" {...register("active")} />
        <span>
          <span className="font-medium">On</span> <span className="text-slate-600">— payers can use it now (turn it off any time from the list)</span>
        </span>
      </label>
    </div>
  );
}

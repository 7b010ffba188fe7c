"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { DESCRIPTION_MAX } from "@/lib/client/requests/constants";
import type { NewRequest, NewRequestInput } from "@/lib/client/requests/schemas";
import type { FundRequestView } from "@/lib/requests/view";

import { KnownPayer } from "./known-payer";
import { requestHref } from "./requests-table";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

function newKey(): string {
  return crypto.randomUUID().replace(/-/g, "");
}

/** What a "Try again" of a failed request fills in (the person checks it and sends: a new request, a new key). */
export type RequestPrefill = Partial<Pick<NewRequestInput, "tag" | "amount" | "description" | "businessReference">>;

type FieldName = "tag" | "amount" | "description" | "businessReference";
const FIELDS: readonly string[] = ["tag", "amount", "description", "businessReference"] satisfies FieldName[];

/** One idempotency key per filled-in form: a double-click or resubmit can never send twice. */
export function NewRequestForm({ prefill = {} }: { prefill?: RequestPrefill }) {
  const router = useRouter();
  const [serverError, setServerError] = useState<{ message: string; href: string | null } | null>(null);
  const [sent, setSent] = useState(false);
  const form = useForm<NewRequestInput, unknown, NewRequest>({
    resolver: lazyZodResolver(() => import("@/lib/client/requests/schemas").then((m) => m.newRequestSchema)),
    defaultValues: {
      tag: prefill.tag ?? "",
      amount: prefill.amount ?? "",
      description: prefill.description ?? "",
      businessReference: prefill.businessReference ?? "",
      idempotencyKey: newKey(),
    },
  });
  const typedTag = useWatch({ control: form.control, name: "tag" });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: NewRequest) {
    setServerError(null);
    try {
      const created = await apiFetch<FundRequestView>("/api/requests", { method: "POST", json: values });
      setSent(true);
      router.push(requestHref(created));
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, list] of Object.entries(error.fieldErrors)) {
          if (list?.[0] && FIELDS.includes(field)) form.setError(field as FieldName, { message: list[0] });
        }
        const record = error.data as Partial<FundRequestView> | null;
        setServerError({
          message: error.message,
          href: record?.reference ? requestHref({ requestId: record.requestId ?? null, reference: record.reference }) : null,
        });
        // That attempt is recorded (as failed); a retry is a new request.
        if (record?.reference) form.setValue("idempotencyKey", newKey());
      } else {
        setServerError({ message: "The request could not be sent. Try again.", href: null });
      }
    }
  }

  const describedBy = (name: FieldName, hint = false) => (errors[name] ? `req-${name}-error` : hint ? `req-${name}-hint` : undefined);

  return (
    <form
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      className={cardClasses("max-w-xl space-y-4 p-4")}
      aria-describedby={serverError ? "req-server-error" : undefined}
    >
      <ReadyFieldset className="space-y-4">
        <Field id="req-tag" label="Tag of the person to ask" error={errors.tag?.message} hint="Their consumer-app tag, e.g. @ada.obi">
          <input
            id="req-tag"
            autoComplete="off"
            className={inputClass}
            aria-invalid={errors.tag ? true : undefined}
            aria-describedby={describedBy("tag", true)}
            {...form.register("tag")}
          />
        </Field>
        <KnownPayer tag={typeof typedTag === "string" ? typedTag : ""} />
        <Field id="req-amount" label="Amount (₦)" error={errors.amount?.message} hint="Naira, up to two decimals, at most ₦10,000,000">
          <input
            id="req-amount"
            inputMode="decimal"
            autoComplete="off"
            className={inputClass}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={describedBy("amount", true)}
            {...form.register("amount")}
          />
        </Field>
        <Field id="req-description" label="Description" error={errors.description?.message} hint={`Shown to the person; at most ${DESCRIPTION_MAX} characters`}>
          <input
            id="req-description"
            autoComplete="off"
            maxLength={DESCRIPTION_MAX + 20}
            className={inputClass}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={describedBy("description", true)}
            {...form.register("description")}
          />
        </Field>
        <Field
          id="req-businessReference"
          label="Your reference (optional)"
          error={errors.businessReference?.message}
          hint="An invoice or member number; kept with the request and its payment and in every export, never shown to the person"
        >
          <input
            id="req-businessReference"
            autoComplete="off"
            maxLength={120}
            className={inputClass}
            aria-invalid={errors.businessReference ? true : undefined}
            aria-describedby={describedBy("businessReference", true)}
            {...form.register("businessReference")}
          />
        </Field>
        <input type="hidden" {...form.register("idempotencyKey")} />
        {serverError ? (
          <ErrorNote as="div" id="req-server-error" role="alert">
            <p>{serverError.message}</p>
            {serverError.href ? (
              <p className="mt-1">
                <a href={serverError.href} className="underline">
                  See the recorded attempt
                </a>
              </p>
            ) : null}
          </ErrorNote>
        ) : null}
        <Button type="submit" disabled={isSubmitting || sent}>
          {isSubmitting ? "Sending…" : sent ? "Sent — opening status…" : "Send request"}
        </Button>
      </ReadyFieldset>
    </form>
  );
}

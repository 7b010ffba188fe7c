"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { useTimeZone } from "@/components/ui/local-time";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { PayPageCreate } from "@/lib/client/pay-pages/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";

import { emptyValues, type PayPageFormValues } from "./form-values";
import { PayPageFields, serverFieldNames, type PlanChoice } from "./pay-page-fields";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// "Make a pay page" on /pay-pages (POST /api/pay-pages): the typed values become the handler's body, checked with its
// own schema on submit (./form-schema.ts, loaded then); a taken address is said beside the address.

export function CreatePayPageForm({ plans, onCreated }: { plans: readonly PlanChoice[]; onCreated: (page: PayPageView, message: string) => void }) {
  const timeZone = useTimeZone();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<PayPageFormValues, unknown, PayPageCreate>({
    resolver: lazyZodResolver(() => import("./form-schema").then((m) => m.payPageCreateFormSchema(timeZone))),
    defaultValues: emptyValues(),
  });
  const { isSubmitting } = form.formState;

  async function onSubmit(values: PayPageCreate) {
    setError(null);
    try {
      const { data, message } = await apiFetchWithMessage<PayPageView>("/api/pay-pages", { method: "POST", json: values });
      form.reset(emptyValues());
      onCreated(data, message);
    } catch (e) {
      if (e instanceof ApiError && e.code === "conflict") {
        form.setError("slug", { type: "server", message: e.message }, { shouldFocus: true });
      } else if (e instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, serverFieldNames(values.fields.length));
        setError(beside ? null : e.message);
      } else setError("The page could not be made. Try again.");
    }
  }

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" aria-label="Make a pay page">
      <ReadyFieldset className="space-y-4">
        <PayPageFields form={form} prefix="new-page" plans={plans} slug />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Making…" : "Make page"}
          </Button>
        </div>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </ReadyFieldset>
    </form>
  );
}

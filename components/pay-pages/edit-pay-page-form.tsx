"use client";

import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useTimeZone } from "@/components/ui/local-time";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { ApiError, apiFetchWithMessage } from "@/lib/client/http/api-fetch";
import type { PayPagePatch } from "@/lib/client/pay-pages/schemas";
import type { PayPageView } from "@/lib/client/pay-pages/view";

import { publicPath } from "./format";
import { valuesOf, type PayPageFormValues } from "./form-values";
import { PayPageFields, serverFieldNames, type PlanChoice } from "./pay-page-fields";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

// Changing a pay page (PATCH /api/pay-pages/:id): every field but its address, which printed codes point at. The
// screen keys this panel by the page, so focus lands on its heading each time it opens.

export function EditPayPageForm({
  page,
  plans,
  onSaved,
  onCancel,
}: {
  page: PayPageView;
  plans: readonly PlanChoice[];
  onSaved: (page: PayPageView, message: string) => void;
  onCancel: () => void;
}) {
  const timeZone = useTimeZone();
  const heading = useRef<HTMLHeadingElement>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<PayPageFormValues, unknown, PayPagePatch>({
    resolver: lazyZodResolver(() => import("./form-schema").then((m) => m.payPageEditFormSchema(timeZone))),
    defaultValues: valuesOf(page, timeZone),
  });
  const { isSubmitting } = form.formState;
  useEffect(() => heading.current?.focus(), []);
  // The page's own plan stays choosable even when the plans list does not carry it (an older page, say).
  const choices = page.plan && !plans.some((p) => p.id === page.plan?.id) ? [page.plan, ...plans] : plans;

  async function onSubmit(values: PayPagePatch) {
    setError(null);
    try {
      const { data, message } = await apiFetchWithMessage<PayPageView>(`/api/pay-pages/${encodeURIComponent(page.id)}`, { method: "PATCH", json: values });
      onSaved(data, message);
    } catch (e) {
      if (e instanceof ApiError) {
        const beside = showServerFieldErrors(form.setError, e.fieldErrors, serverFieldNames(values.fields?.length ?? 0));
        setError(beside ? null : e.message);
      } else setError("The page could not be changed. Try again.");
    }
  }

  return (
    <Card as="section" aria-labelledby="edit-page-heading" className="space-y-3 p-4" data-testid="edit-pay-page">
      <h2 id="edit-page-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        Change “{page.title}” <span className="font-mono text-sm font-normal break-all text-slate-600">{publicPath(page.slug)}</span>
      </h2>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="space-y-4" aria-label={`Change the pay page ${page.title}`}>
        <ReadyFieldset className="space-y-4">
          <PayPageFields form={form} prefix="edit-page" plans={choices} slug={false} />
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Saving…" : "Save changes"}
            </Button>
            <Button variant="quiet" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </ReadyFieldset>
      </form>
    </Card>
  );
}

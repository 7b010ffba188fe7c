"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import type { campaignUploadFormSchema } from "@/lib/client/campaigns/schemas";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { showServerFieldErrors } from "@/lib/client/forms/server-errors";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";

import { campaignHref } from "./format";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof campaignUploadFormSchema>;
type FormOutput = z.output<typeof campaignUploadFormSchema>;

const fileClass =
  "block w-full rounded-md border border-slate-300 text-sm text-slate-900 shadow-sm file:mr-3 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-100 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none aria-invalid:border-red-500";

/**
 * Name and file, sent as multipart to POST /api/campaigns; the server checks the file and answers
 * the draft, whose page shows the preview. Nothing is sent to anyone until Start is pressed there.
 */
export function NewCampaignForm() {
  const router = useRouter();
  const [serverError, setServerError] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/campaigns/schemas").then((m) => m.campaignUploadFormSchema)),
    defaultValues: { name: "", file: undefined },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    if (uploaded) return;
    setServerError(null);
    const data = new FormData();
    data.set("name", values.name);
    data.set("file", values.file);
    try {
      const created = await apiFetch<CampaignView>("/api/campaigns", { method: "POST", body: data });
      setUploaded(true);
      router.push(campaignHref(created.id));
    } catch (error) {
      if (error instanceof ApiError) {
        showServerFieldErrors(form.setError, error.fieldErrors, ["name", "file"]);
        // The server's own words: what is wrong with the file (size, type, header, CSV) or the name.
        setServerError(error.message);
      } else {
        setServerError("The file could not be uploaded. Try again.");
      }
    }
  }

  const describedBy = (id: string, error: string | undefined) => (error ? `${id}-error` : `${id}-hint`);

  return (
    <form
      onSubmit={form.handleSubmit(onSubmit)}
      noValidate
      encType="multipart/form-data"
      className={cardClasses("max-w-xl space-y-4 p-4")}
      aria-describedby={serverError ? "campaign-server-error" : undefined}
    >
      <ReadyFieldset className="space-y-4">
        <Field
          id="campaign-name"
          label="Name"
          error={errors.name?.message}
          hint="For staff only, e.g. “November dues”; the people asked see each row's description"
        >
          <input
            id="campaign-name"
            autoComplete="off"
            maxLength={120}
            className={inputClass}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy("campaign-name", errors.name?.message)}
            {...form.register("name")}
          />
        </Field>
        <Field id="campaign-file" label="CSV file" error={errors.file?.message} hint="Tag, amount and description per row; see the format below">
          <input
            id="campaign-file"
            type="file"
            accept=".csv,text/csv"
            className={fileClass}
            aria-invalid={errors.file ? true : undefined}
            aria-describedby={`${describedBy("campaign-file", errors.file?.message)} campaign-format`}
            {...form.register("file")}
          />
        </Field>
        {serverError ? (
          <ErrorNote as="div" id="campaign-server-error" role="alert" data-testid="campaign-upload-error">
            <p>{serverError}</p>
          </ErrorNote>
        ) : null}
        <div className="space-y-2">
          <Button type="submit" disabled={isSubmitting || uploaded}>
            {isSubmitting ? "Uploading…" : uploaded ? "Uploaded — opening the preview…" : "Upload"}
          </Button>
          <p className="text-xs text-slate-600">Uploading sends nothing: you see a preview first and start the campaign from there.</p>
        </div>
      </ReadyFieldset>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { ErrorNote } from "@/components/ui/error-panel";
import { Field, inputClass } from "@/components/ui/field";
import { campaignNameSchema } from "@/lib/client/campaigns/schemas";
import type { CampaignView } from "@/lib/client/campaigns/view";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";

import { campaignHref } from "./format";

const fileClass =
  "block w-full rounded-md border border-slate-300 text-sm text-slate-900 shadow-sm file:mr-3 file:border-0 file:border-r file:border-slate-300 file:bg-slate-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-100 focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none aria-invalid:border-red-500";

/**
 * Name and file, sent as multipart to POST /api/campaigns; the server checks the file and answers
 * the draft, whose page shows the preview. Nothing is sent to anyone until Start is pressed there.
 */
export function NewCampaignForm({ maxBytes }: { maxBytes: number }) {
  const router = useRouter();
  const nameRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || uploaded) return;
    setServerError(null);
    const data = new FormData(event.currentTarget);
    const checkedName = campaignNameSchema.safeParse(String(data.get("name") ?? ""));
    const file = data.get("file");
    const hasFile = file instanceof File && file.name !== "";
    const nameProblem = checkedName.success ? null : (checkedName.error.issues[0]?.message ?? "Check the campaign's name");
    const fileProblem = !hasFile
      ? "Choose the CSV file to upload"
      : file.size === 0
        ? "The file is empty. Choose a CSV with a header row and at least one row."
        : file.size > maxBytes
          ? `The file is larger than 2 MiB (${file.size.toLocaleString("en")} bytes). Split it into smaller files.`
          : null;
    setNameError(nameProblem);
    setFileError(fileProblem);
    if (!checkedName.success || fileProblem) {
      (nameProblem ? nameRef : fileRef).current?.focus();
      return;
    }
    data.set("name", checkedName.data);
    setBusy(true);
    try {
      const created = await apiFetch<CampaignView>("/api/campaigns", { method: "POST", body: data });
      setUploaded(true);
      router.push(campaignHref(created.id));
    } catch (error) {
      if (error instanceof ApiError) {
        const forName = error.fieldErrors.name?.[0];
        const forFile = error.fieldErrors.file?.[0];
        if (forFile) setFileError(forFile);
        if (forName) setNameError(forName);
        if (forName || forFile) (forName ? nameRef : fileRef).current?.focus();
        // The server's own words: what is wrong with the file (size, type, header, CSV) or the name.
        setServerError(error.message);
      } else {
        setServerError("The file could not be uploaded. Try again.");
      }
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (id: string, error: string | null) => (error ? `${id}-error` : `${id}-hint`);

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      encType="multipart/form-data"
      className={cardClasses("max-w-xl space-y-4 p-4")}
      aria-describedby={serverError ? "campaign-server-error" : undefined}
    >
      <Field
        id="campaign-name"
        label="Name"
        error={nameError ?? undefined}
        hint="For staff only, e.g. “November dues”; the people asked see each row's description"
      >
        <input
          ref={nameRef}
          id="campaign-name"
          name="name"
          autoComplete="off"
          maxLength={120}
          className={inputClass}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={describedBy("campaign-name", nameError)}
        />
      </Field>
      <Field id="campaign-file" label="CSV file" error={fileError ?? undefined} hint="Tag, amount and description per row; see the format below">
        <input
          ref={fileRef}
          id="campaign-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          className={fileClass}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={`${describedBy("campaign-file", fileError)} campaign-format`}
          onChange={() => setFileError(null)}
        />
      </Field>
      {serverError ? (
        <ErrorNote as="div" id="campaign-server-error" role="alert" data-testid="campaign-upload-error">
          <p>{serverError}</p>
        </ErrorNote>
      ) : null}
      <div className="space-y-2">
        <Button type="submit" disabled={busy || uploaded}>
          {busy ? "Uploading…" : uploaded ? "Uploaded — opening the preview…" : "Upload"}
        </Button>
        <p className="text-xs text-slate-600">Uploading sends nothing: you see a preview first and start the campaign from there.</p>
      </div>
    </form>
  );
}

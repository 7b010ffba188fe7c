"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";

import { Button } from "@/components/ui/button";
import { cardClasses } from "@/components/ui/card";
import { Field, inputClass } from "@/components/ui/field";
import { ROLES, ROLE_LABELS } from "@/lib/client/auth/roles";
import { lazyZodResolver } from "@/lib/client/forms/lazy-resolver";
import { ApiError, apiFetch } from "@/lib/client/http/api-fetch";
import type { staffCreateSchema } from "@/lib/client/staff/schemas";
import { ReadyFieldset } from "@/components/ui/ready-fieldset";

type FormInput = z.input<typeof staffCreateSchema>;
type FormOutput = z.output<typeof staffCreateSchema>;

export function AddStaffForm() {
  const router = useRouter();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: lazyZodResolver(() => import("@/lib/client/staff/schemas").then((m) => m.staffCreateSchema)),
    defaultValues: { email: "", name: "", role: "viewer", password: "" },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: FormOutput) {
    setMessage(null);
    try {
      await apiFetch("/api/staff", { method: "POST", json: values });
      form.reset();
      setMessage({ kind: "ok", text: `Account created for ${values.email}.` });
      router.refresh();
    } catch (error) {
      if (error instanceof ApiError) {
        for (const [field, list] of Object.entries(error.fieldErrors)) {
          if (list?.[0] && (field === "email" || field === "name" || field === "role" || field === "password")) form.setError(field, { message: list[0] });
        }
        setMessage({ kind: "error", text: error.message });
      } else setMessage({ kind: "error", text: "Could not create the account. Try again." });
    }
  }

  const aria = (name: keyof FormInput) => ({
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `staff-${name}-error` : undefined,
  });

  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className={cardClasses("grid gap-4 p-4 sm:grid-cols-2")}>
      <ReadyFieldset>
        <h2 className="text-lg font-semibold sm:col-span-2">Add a staff member</h2>
        <Field id="staff-email" label="E-mail" error={errors.email?.message}>
          <input id="staff-email" type="email" autoComplete="off" className={inputClass} {...aria("email")} {...form.register("email")} />
        </Field>
        <Field id="staff-name" label="Name" error={errors.name?.message}>
          <input id="staff-name" className={inputClass} {...aria("name")} {...form.register("name")} />
        </Field>
        <Field id="staff-role" label="Role" error={errors.role?.message}>
          <select id="staff-role" className={inputClass} {...aria("role")} {...form.register("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="staff-password" label="Initial password" error={errors.password?.message} hint="At least 10 characters; tell them to keep it private.">
          <input id="staff-password" type="password" autoComplete="new-password" className={inputClass} {...aria("password")} {...form.register("password")} />
        </Field>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? "Adding…" : "Add staff member"}
          </Button>
          <p aria-live="polite" className={message?.kind === "error" ? "text-sm text-red-700" : "text-sm text-green-800"}>
            {message?.text}
          </p>
        </div>
      </ReadyFieldset>
    </form>
  );
}

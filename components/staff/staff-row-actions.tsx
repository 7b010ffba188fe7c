"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { ROLES, type Role } from "@/lib/auth/roles";
import { ApiError, apiFetch } from "@/lib/http/api-fetch";

export function StaffRowActions({ id, email, role, disabled, self }: { id: string; email: string; role: Role; disabled: boolean; self: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function patch(body: { role?: Role; disabled?: boolean }) {
    setError(null);
    startTransition(async () => {
      try {
        await apiFetch(`/api/staff/${encodeURIComponent(id)}`, { method: "PATCH", json: body });
        router.refresh();
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "Could not save the change. Try again.");
      }
    });
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`role-${id}`}>
        Role for {email}
      </label>
      <select
        id={`role-${id}`}
        value={role}
        disabled={pending || self}
        onChange={(e) => patch({ role: e.target.value as Role })}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <Button
        variant="quiet"
        disabled={pending || self}
        onClick={() => patch({ disabled: !disabled })}
        aria-label={`${disabled ? "Enable" : "Disable"} ${email}`}
      >
        {disabled ? "Enable" : "Disable"}
      </Button>
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import { Button } from "@/components/ui/button";
import { ROLES, type Role } from "@/lib/client/auth/roles";
import { ApiError, apiFetch, apiFetchWithMessage } from "@/lib/client/http/api-fetch";

export function StaffRowActions({
  id,
  email,
  role,
  disabled,
  twoStep,
  self,
}: {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  twoStep: boolean;
  self: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function resetTwoStep() {
    if (!window.confirm(`Remove two-step sign-in for ${email}? They are signed out everywhere and set it up again after their password.`)) return;
    setError(null);
    setDone(null);
    startTransition(async () => {
      try {
        const { message } = await apiFetchWithMessage(`/api/staff/${encodeURIComponent(id)}/reset-2fa`, { method: "POST" });
        setDone(message || `Two-step sign-in removed for ${email}.`);
        router.refresh();
      } catch (e) {
        setError(e instanceof ApiError ? e.message : "Two-step sign-in could not be reset. Try again.");
      }
    });
  }

  function patch(body: { role?: Role; disabled?: boolean }) {
    setError(null);
    setDone(null);
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
      {twoStep ? (
        <Button
          variant="quiet"
          disabled={pending || self}
          onClick={resetTwoStep}
          aria-label={`Reset two-step sign-in for ${email}`}
          title={self ? "Turn your own off on your Account page" : undefined}
        >
          Reset two-step
        </Button>
      ) : null}
      {done ? (
        <p role="status" className="w-full text-sm text-green-800">
          {done}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

// One labelled text box of the pay form, sized for a thumb (16 px text, so phones do not zoom) (docs/architecture.md "Pay pages").
import type { InputHTMLAttributes } from "react";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "className">;

export const payInputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-4 py-3 text-base text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500 focus:outline-none aria-invalid:border-red-600";

/** A label over a text box; its hint or error tied to it by aria-describedby (the error replaces the hint). */
export function PayField({
  id,
  label,
  hint,
  error,
  value,
  onValue,
  ...input
}: InputProps & { id: string; label: string; hint?: string; error?: string; value: string; onValue: (value: string) => void }) {
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-base font-medium text-slate-800">
        {label}
      </label>
      <input
        {...input}
        id={id}
        value={value}
        onChange={(event) => onValue(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`mt-1 ${payInputClass}`}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

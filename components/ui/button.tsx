import type { ButtonHTMLAttributes } from "react";

export type ButtonVariant = "primary" | "secondary" | "quiet";

const VARIANTS: Record<ButtonVariant, string> = {
  /** The one main action of a form or page. */
  primary: "rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 disabled:opacity-60",
  /** Actions beside content: refresh, re-verify, download. */
  secondary: "rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-900 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60",
  /** Small actions in a header or a table row. */
  quiet: "rounded-md px-2 py-1 text-sm text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-60",
};

/**
 * A button's classes, for a `<Link>` or `<a>` that looks like one. `extra` is for layout (`w-full`,
 * margins), not for colours or padding, which would fight the variant's.
 */
export function buttonClasses(variant: ButtonVariant = "primary", extra?: string): string {
  return extra ? `${VARIANTS[variant]} ${extra}` : VARIANTS[variant];
}

/** A `<button>`, `type="button"` unless told otherwise. No handlers of its own, so server components can render it. */
export function Button({ variant = "primary", type = "button", className, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={buttonClasses(variant, className)} {...rest} />;
}

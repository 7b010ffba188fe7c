import type { HTMLAttributes } from "react";

export type BadgeTone = "neutral" | "brand" | "success" | "warning" | "danger" | "critical";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300",
  brand: "bg-brand-50 text-brand-700 ring-brand-100",
  success: "bg-green-50 text-green-900 ring-green-300",
  warning: "bg-amber-50 text-amber-900 ring-amber-300",
  danger: "bg-red-50 text-red-900 ring-red-300",
  critical: "bg-red-100 text-red-900 ring-red-400",
};

/** A small rounded label. The words carry the meaning; the tone only repeats it. */
export function Badge({ tone, className, ...rest }: HTMLAttributes<HTMLSpanElement> & { tone: BadgeTone }) {
  const base = `inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ${TONES[tone]}`;
  return <span className={className ? `${base} ${className}` : base} {...rest} />;
}

import type { ReactNode } from "react";

/** One term and value of a `<dl>`; `testId` marks the value. */
export function Detail({
  label,
  children,
  testId,
  className,
  valueClassName,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  className?: string;
  valueClassName?: string;
}) {
  return (
    <div className={className ? `min-w-0 ${className}` : "min-w-0"}>
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className={valueClassName} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
